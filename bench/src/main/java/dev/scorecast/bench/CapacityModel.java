package dev.scorecast.bench;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * {@code scorecast bench capacity}: how many worker nodes a job rate needs, from the per-job cost
 * measured by {@code bench score} (docs/SCALING.md). A seed-fixed simulation of a day: jobs arrive
 * at random (Poisson) with video lengths drawn around a mean (log-normal), queue in one fleet-wide
 * queue (db-scheduler's), and run on worker nodes of {@code --cores} cores with {@code --slots} jobs
 * each; jobs on one node share its cores (each job alone keeps at most {@code --job-cores} busy, as
 * measured). For each rate it finds the fewest workers whose 95th-percentile time from upload
 * complete to finished stays within 1.25 times what it is with no queueing at all (the long videos'
 * own time), and prints what the fleet asks of
 * PostgreSQL and the object store at that size, counted from the code paths (docs/SCALING.md).
 */
final class CapacityModel {
    /** Server CPU-seconds per minute of 1080p30 video, analysis + execution (bench score, quiet machine, 2026-11-24). */
    static final double CPU_PER_MINUTE = 9.0 + 5.2;

    private static final double STEP = 0.1;

    private CapacityModel() {}

    record Options(
            double[] rates, double meanMinutes, int cores, int slots, double jobCores, long seed, double hours) {}

    static void run(List<String> args) {
        double[] rates = {60, 250, 1000, 4000};
        double meanMinutes = 1.5;
        int cores = 2;
        int slots = 2;
        double jobCores = 1.5;
        long seed = 16;
        double hours = 6;
        for (int i = 0; i < args.size(); i++) {
            String value = i + 1 < args.size() ? args.get(i + 1) : "";
            switch (args.get(i)) {
                case "--jobs-per-hour" ->
                    rates = Arrays.stream(value.split(","))
                            .mapToDouble(Double::parseDouble)
                            .toArray();
                case "--minutes" -> meanMinutes = Double.parseDouble(value);
                case "--cores" -> cores = Integer.parseInt(value);
                case "--slots" -> slots = Integer.parseInt(value);
                case "--job-cores" -> jobCores = Double.parseDouble(value);
                case "--seed" -> seed = Long.parseLong(value);
                case "--hours" -> hours = Double.parseDouble(value);
                default ->
                    throw new IllegalArgumentException("unknown option " + args.get(i)
                            + "; usage: scorecast bench capacity [--jobs-per-hour 60,250,1000,4000] [--minutes 1.5] [--cores 2]"
                            + " [--slots 2] [--job-cores 1.5] [--seed 16] [--hours 6]");
            }
            i++;
        }
        Options o = new Options(rates, meanMinutes, cores, slots, jobCores, seed, hours);
        double unloaded = meanMinutes * CPU_PER_MINUTE / Math.min(jobCores, cores);
        // The 95th percentile of the service time alone: the 95th-percentile video, nothing ahead of it.
        double unloadedP95 =
                Math.exp(Math.log(meanMinutes) - 0.18 + 1.645 * 0.6) * CPU_PER_MINUTE / Math.min(jobCores, cores);
        System.out.printf(
                Locale.ROOT,
                "capacity model: %.1f CPU-s per video minute, mean video %.1f min (log-normal, sigma 0.6), workers of %d cores"
                        + " running %d jobs (a job alone keeps %.1f cores busy), %.0f h simulated per point, seed %d%n",
                CPU_PER_MINUTE,
                meanMinutes,
                cores,
                slots,
                jobCores,
                hours,
                seed);
        System.out.printf(
                Locale.ROOT,
                "unloaded: a mean job %.1f s from upload complete to finished, the 95th percentile %.1f s; goal p95 <= %.1f s%n%n",
                unloaded,
                unloadedP95,
                1.25 * unloadedP95);
        System.out.println(
                "jobs/h   workers  CPU busy  p50 s   p95 s   | PostgreSQL queries/s (polls + heartbeats + status + writes) | object store requests/s");
        for (double rate : rates) {
            int workers = Math.max(1, (int) Math.ceil(rate * meanMinutes * CPU_PER_MINUTE / 3600 / cores));
            // Double until the goal holds, then step back down to the fewest that still meet it.
            while (simulate(o, rate, workers).p95 > 1.25 * unloadedP95 && workers <= 10_000) {
                workers *= 2;
            }
            while (workers > 1 && simulate(o, rate, workers - 1).p95 <= 1.25 * unloadedP95) {
                workers--;
            }
            Result r;
            while (true) {
                r = simulate(o, rate, workers);
                if (r.p95 <= 1.25 * unloadedP95 || workers > 10_000) {
                    break;
                }
                workers++;
            }
            double jobsPerSecond = rate / 3600;
            // db-scheduler: each worker polls once a second; each running job renews its heartbeat every 5 s;
            // a client polls status every 0.4 s while its job is queued or running (the studio's interval);
            // about 40 writes per job (upload rows and chunk rows for ~5 chunks, job rows, plan, execution, outputs).
            double polls = workers;
            double heartbeats = r.meanRunning / 5;
            double status = r.meanInSystem / 0.4;
            double writes = 40 * jobsPerSecond;
            // Object store per job: ~5 chunk parts + complete, source get (staging), audio put/get, analysis and plan
            // put/get, 6 output puts (multipart for the video and stems: ~20 parts), 6 downloads: ~50 requests.
            double store = 50 * jobsPerSecond;
            System.out.printf(
                    Locale.ROOT,
                    "%6.0f  %7d  %7.0f %%  %6.1f  %6.1f   | %6.1f (%.0f + %.1f + %.1f + %.1f)%s | %6.1f%n",
                    rate,
                    workers,
                    100 * r.utilisation,
                    r.p50,
                    r.p95,
                    polls + heartbeats + status + writes,
                    polls,
                    heartbeats,
                    status,
                    writes,
                    " ".repeat(12),
                    store);
        }
    }

    record Result(double p50, double p95, double utilisation, double meanRunning, double meanInSystem) {}

    /** One simulated stretch of {@code o.hours} at {@code rate} jobs an hour on {@code workers} nodes. */
    static Result simulate(Options o, double rate, int workers) {
        SplittableRandom rng = new SplittableRandom(o.seed);
        double end = o.hours * 3600;
        double mu = Math.log(o.meanMinutes) - 0.18; // log-normal mean = exp(mu + sigma^2 / 2), sigma 0.6
        ArrayDeque<double[]> queue = new ArrayDeque<>(); // {arrival, cpu seconds left}
        List<List<double[]>> running = new ArrayList<>();
        for (int w = 0; w < workers; w++) {
            running.add(new ArrayList<>());
        }
        List<Double> latencies = new ArrayList<>();
        double nextArrival = -Math.log(1 - rng.nextDouble()) * 3600 / rate;
        double busy = 0;
        double runningSum = 0;
        double inSystemSum = 0;
        long steps = 0;
        for (double t = 0; t < end; t += STEP) {
            while (nextArrival <= t) {
                double minutes = Math.exp(mu + 0.6 * gaussian(rng));
                queue.add(new double[] {nextArrival, minutes * CPU_PER_MINUTE});
                nextArrival += -Math.log(1 - rng.nextDouble()) * 3600 / rate;
            }
            // The least busy node takes the next job: an idle worker's poll finds it first.
            while (!queue.isEmpty()) {
                List<double[]> least = null;
                for (List<double[]> node : running) {
                    if (node.size() < o.slots && (least == null || node.size() < least.size())) {
                        least = node;
                    }
                }
                if (least == null) {
                    break;
                }
                least.add(queue.poll());
            }
            int inSystem = queue.size();
            for (List<double[]> node : running) {
                if (node.isEmpty()) {
                    continue;
                }
                double share = Math.min(o.jobCores, (double) o.cores / node.size());
                busy += share * node.size() * STEP;
                inSystem += node.size();
                runningSum += node.size();
                for (var it = node.iterator(); it.hasNext(); ) {
                    double[] job = it.next();
                    job[1] -= share * STEP;
                    if (job[1] <= 0) {
                        latencies.add(t + STEP - job[0]);
                        it.remove();
                    }
                }
            }
            inSystemSum += inSystem;
            steps++;
        }
        if (latencies.isEmpty()) {
            return new Result(0, 0, 0, 0, 0);
        }
        double[] sorted =
                latencies.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        // Jobs still queued at the end have waited at least this long: count them, so an overloaded fleet is not
        // flattered.
        double[] all = Arrays.copyOf(sorted, sorted.length + queue.size());
        int k = sorted.length;
        for (double[] waiting : queue) {
            all[k++] = end - waiting[0];
        }
        Arrays.sort(all);
        return new Result(
                all[all.length / 2],
                all[(int) (all.length * 0.95)],
                busy / (end * workers * o.cores),
                runningSum / steps,
                inSystemSum / steps);
    }

    private static double gaussian(SplittableRandom rng) {
        return Math.sqrt(-2 * Math.log(1 - rng.nextDouble())) * Math.cos(2 * Math.PI * rng.nextDouble());
    }
}
