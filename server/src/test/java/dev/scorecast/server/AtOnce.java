package dev.scorecast.server;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Sends the same request from many threads released together by one latch, as racing clients
 * would: no thread sends before every one of them is waiting at the gate.
 */
final class AtOnce {
    private AtOnce() {}

    static List<Api.Response> send(int callers, Callable<Api.Response> request)
            throws InterruptedException, ExecutionException {
        var ready = new CountDownLatch(callers);
        var gate = new CountDownLatch(1);
        try (var threads = Executors.newFixedThreadPool(callers)) {
            List<Future<Api.Response>> answers = new ArrayList<>();
            for (int i = 0; i < callers; i++) {
                answers.add(threads.submit(() -> {
                    ready.countDown();
                    gate.await();
                    return request.call();
                }));
            }
            ready.await();
            gate.countDown();
            List<Api.Response> responses = new ArrayList<>();
            for (Future<Api.Response> answer : answers) {
                responses.add(answer.get());
            }
            return responses;
        }
    }
}
