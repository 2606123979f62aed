package dev.scorecast.engine.pipeline;

import dev.scorecast.engine.core.InstrumentGroup;
import dev.scorecast.engine.instruments.BankCatalog;
import dev.scorecast.engine.music.Composer;
import dev.scorecast.engine.music.GrooveSource;
import dev.scorecast.engine.music.Part;
import dev.scorecast.engine.music.Score;
import dev.scorecast.engine.plan.Plan;
import dev.scorecast.engine.plan.PlanJson;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Where a delivered piece of music comes from, so a user can answer a Content ID claim: the engine
 * version, the plan (its SHA-256, as plan.json holds it) and seed that determine every note, and each
 * sound source the synthesizer played with its license (NOTICE lists them all).
 *
 * @param engineVersion the engine jar's version ("development" when run from classes)
 * @param planSha256    SHA-256 of plan.json as written next to results.json
 * @param seed          the plan's seed
 * @param sources       every sound bank the music played, with the programs it played from it
 * @param grooves       the groove templates whose drummers' timing, weight and fills the music was played with, each with the
 *                      dataset, license and recorded performances it was taken from
 */
public record Provenance(
        String engineVersion, String planSha256, long seed, List<Source> sources, List<GrooveSource> grooves) {

    /** A sound bank: its number and id (instruments/banks.json), what it is, where from, its license, the programs played (a kit as "kit N"). */
    public record Source(int bank, String id, String title, String origin, String license, List<String> programs) {}

    static Provenance of(Plan plan, Score score, Path generalMidiBank) {
        Map<Integer, TreeSet<String>> used = new TreeMap<>();
        for (Part part : score.parts()) {
            if (part.group() == InstrumentGroup.VOCALS) {
                continue; // sung by the singer (espeak-ng phonemes, Scorecast's own voice), not played from a bank
            }
            List<Integer> programs = new ArrayList<>();
            programs.add(part.program());
            part.programChanges().forEach(pc -> programs.add(pc.program()));
            for (int address : programs) {
                used.computeIfAbsent(address >> 7, b -> new TreeSet<>())
                        .add((part.drums() ? "kit " : "") + (address & 127));
            }
        }
        List<Source> sources = new ArrayList<>();
        used.forEach((bank, programs) -> {
            BankCatalog.Bank b = BankCatalog.bank(bank).orElseThrow();
            String origin = bank == 0 && generalMidiBank != null
                    ? generalMidiBank.getFileName() + " (" + b.source() + ")"
                    : b.source();
            sources.add(new Source(bank, b.id(), b.title(), origin, b.license(), List.copyOf(programs)));
        });
        String version = Provenance.class.getPackage().getImplementationVersion();
        return new Provenance(
                version == null ? "development" : version,
                sha256(PlanJson.write(plan)),
                plan.seed(),
                List.copyOf(sources),
                Composer.grooveSources(plan, score));
    }

    private static String sha256(String text) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
