package dev.scorecast.server.webhooks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The verification snippets of docs/WEBHOOKS.md, run as a receiver would run them (java, node,
 * python3) against bodies signed by the server's own code: a good signature passes; a changed body,
 * a wrong secret and a time past the tolerance fail. So the documented code and the server agree.
 */
class WebhookSnippetsTest {
    private static final String SECRET = "whsec_abcdefghijklmnopqrstuvwxyz234567";
    private static final String BODY =
            "{\"id\":\"evt_1\",\"type\":\"execution.finished\",\"data\":{\"message\":\"Fertig – ✓\"}}";

    @TempDir
    Path dir;

    /** Four cases, one per line of the program's input: header, body file; the program prints true or false for each. */
    private List<String[]> cases() throws IOException {
        byte[] body = BODY.getBytes(StandardCharsets.UTF_8);
        Path good = Files.write(dir.resolve("good.json"), body);
        Path changed = Files.write(
                dir.resolve("changed.json"), BODY.replace("evt_1", "evt_2").getBytes(StandardCharsets.UTF_8));
        Instant now = Instant.now();
        return List.of(
                new String[] {WebhookSigner.header(SECRET, now, body), good.toString(), "true"},
                new String[] {WebhookSigner.header(SECRET, now, body), changed.toString(), "false"},
                new String[] {WebhookSigner.header(SECRET + "x", now, body), good.toString(), "false"},
                new String[] {WebhookSigner.header(SECRET, now.minusSeconds(600), body), good.toString(), "false"});
    }

    private static String snippet(String language) throws IOException {
        String doc = Files.readString(
                Path.of(System.getProperty("user.dir")).resolveSibling("docs").resolve("WEBHOOKS.md"));
        Matcher m = Pattern.compile(
                        "<!-- verify:" + language + " -->\\s*```" + language + "\\n(.*?)```", Pattern.DOTALL)
                .matcher(doc);
        if (!m.find()) {
            throw new AssertionError(
                    "docs/WEBHOOKS.md has no " + language + " snippet after <!-- verify:" + language + " -->");
        }
        return m.group(1);
    }

    private void check(List<String> command, Path program) throws Exception {
        List<String[]> cases = cases();
        List<String> full = new ArrayList<>(command);
        full.add(program.toString());
        for (String[] c : cases) {
            full.add(c[0]);
            full.add(c[1]);
        }
        Process p = new ProcessBuilder(full).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), out);
        assertEquals(
                cases.stream().map(c -> c[2]).toList(),
                List.of(out.strip().split("\\s+")),
                program.getFileName() + " printed: " + out);
    }

    @Test
    void theJavaSnippetAgreesWithTheServer() throws Exception {
        Path program = Files.writeString(
                dir.resolve("Check.java"),
                """
                public class Check {
                    public static void main(String[] args) throws Exception {
                        for (int i = 0; i < args.length; i += 2) {
                            byte[] body = java.nio.file.Files.readAllBytes(java.nio.file.Path.of(args[i + 1]));
                            System.out.println(ScorecastWebhooks.verify("%s", args[i], body, 300));
                        }
                    }
                }
                """.formatted(SECRET) + snippet("java").replaceAll("(?m)^import .*$", ""),
                StandardCharsets.UTF_8);
        String imports = String.join(
                "\n",
                Pattern.compile("(?m)^import .*$")
                        .matcher(snippet("java"))
                        .results()
                        .map(r -> r.group())
                        .toList());
        Files.writeString(program, imports + "\n" + Files.readString(program));
        check(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()), program);
    }

    @Test
    void theTypeScriptSnippetAgreesWithTheServer() throws Exception {
        assumeTrue(onPath("node"), "node is not installed (bin/test installs npm, and node with it)");
        // Node 18 and 20 run no TypeScript: the snippet's few annotations are taken off, nothing else changes.
        String js = snippet("ts")
                .replace(": Buffer | string", "")
                .replace(": string[]", "")
                .replace(": boolean", "")
                .replace(": string", "");
        Path program = Files.writeString(dir.resolve("check.mjs"), js + """
                import { readFileSync } from "node:fs";
                const args = process.argv.slice(2);
                for (let i = 0; i < args.length; i += 2) {
                  console.log(String(verifyScorecastSignature("%s", args[i], readFileSync(args[i + 1]))));
                }
                """.formatted(SECRET), StandardCharsets.UTF_8);
        check(List.of("node"), program);
    }

    @Test
    void thePythonSnippetAgreesWithTheServer() throws Exception {
        assumeTrue(onPath("python3"), "python3 is not installed");
        Path program = Files.writeString(
                dir.resolve("check.py"), snippet("python") + """

                if __name__ == "__main__":
                    import sys
                    args = sys.argv[1:]
                    for i in range(0, len(args), 2):
                        with open(args[i + 1], "rb") as f:
                            print(str(verify_scorecast_signature("%s", args[i], f.read())).lower())
                """.formatted(SECRET), StandardCharsets.UTF_8);
        check(List.of("python3"), program);
    }

    private static boolean onPath(String program) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (Files.isExecutable(Path.of(dir, program))) {
                return true;
            }
        }
        return false;
    }
}
