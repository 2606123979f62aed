package dev.scorecast.server;

import java.io.IOException;
import java.net.Authenticator;
import java.net.CookieHandler;
import java.net.ProxySelector;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;

/**
 * Java's HttpClient with every answer held to /openapi.json ({@link OpenApiContract#check(HttpResponse)}),
 * for the tests that need a client of their own rather than {@link Api}: one that must not follow
 * redirects, must speak HTTP/1.1, runs on virtual threads, or reads a stream. Wrapping the client
 * rather than each call means a request added to such a test later is checked too. A body that is
 * read as a stream is checked by status and media type here; the test checks what it reads.
 */
public final class CheckedHttpClient extends HttpClient {
    private final HttpClient client;

    private CheckedHttpClient(HttpClient client) {
        this.client = client;
    }

    /** {@code client}, answers checked. */
    public static HttpClient of(HttpClient client) {
        return client instanceof CheckedHttpClient ? client : new CheckedHttpClient(client);
    }

    /** A new default client, answers checked. */
    public static HttpClient newClient() {
        return of(HttpClient.newHttpClient());
    }

    @Override
    public <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> handler)
            throws IOException, InterruptedException {
        return OpenApiContract.check(client.send(request, handler));
    }

    @Override
    public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request, HttpResponse.BodyHandler<T> handler) {
        return client.sendAsync(request, handler).thenApply(OpenApiContract::check);
    }

    @Override
    public <T> CompletableFuture<HttpResponse<T>> sendAsync(
            HttpRequest request,
            HttpResponse.BodyHandler<T> handler,
            HttpResponse.PushPromiseHandler<T> pushPromiseHandler) {
        return client.sendAsync(request, handler, pushPromiseHandler).thenApply(OpenApiContract::check);
    }

    @Override
    public Optional<CookieHandler> cookieHandler() {
        return client.cookieHandler();
    }

    @Override
    public Optional<Duration> connectTimeout() {
        return client.connectTimeout();
    }

    @Override
    public Redirect followRedirects() {
        return client.followRedirects();
    }

    @Override
    public Optional<ProxySelector> proxy() {
        return client.proxy();
    }

    @Override
    public SSLContext sslContext() {
        return client.sslContext();
    }

    @Override
    public SSLParameters sslParameters() {
        return client.sslParameters();
    }

    @Override
    public Optional<Authenticator> authenticator() {
        return client.authenticator();
    }

    @Override
    public Version version() {
        return client.version();
    }

    @Override
    public Optional<Executor> executor() {
        return client.executor();
    }

    @Override
    public void close() {
        client.close();
    }
}
