package com.telemed.testkit.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * docs/contract-index.md, the page that names for every section of the contract the classes implementing
 * it and the test proving it: every heading of the spec files is a row there, in the files' order, and
 * every file it links to exists.
 */
class ContractIndexTest {

    static final List<String> SPEC_FILES = List.of(
            "partner-api.md", "operations-api.md", "people-and-pages.md", "partner-extensions.md", "decisions.md");

    static final Path DOCS = Path.of("..", "docs");
    static final Pattern FILE_SECTION = Pattern.compile("^## `([a-z-]+\\.md)`$");
    static final Pattern ROW = Pattern.compile("^\\| (#{2,3} [^|]+?) \\|");
    static final Pattern LINK = Pattern.compile("\\]\\((\\.\\./[^)]+)\\)");
    static final Pattern HEADING = Pattern.compile("^#{2,3} .+$");

    @Test
    void everyHeadingOfTheContractHasItsRowInOrder() throws IOException {
        Path spec = specDirectory();
        assumeTrue(Files.isDirectory(spec), "the contract is not beside the repository (" + spec.toAbsolutePath()
                + "); -Dcontract.spec.dir names it");
        Map<String, List<String>> rows = rows();
        for (String file : SPEC_FILES) {
            List<String> headings = new ArrayList<>();
            for (String line : Files.readAllLines(spec.resolve(file))) {
                if (HEADING.matcher(line).matches()) {
                    headings.add(line.strip());
                }
            }
            assertEquals(headings, rows.getOrDefault(file, List.of()),
                    "docs/contract-index.md's rows of " + file + " are not the file's headings");
        }
        assertEquals(SPEC_FILES, List.copyOf(rows.keySet()), "docs/contract-index.md's spec files");
    }

    @Test
    void everyLinkedFileExists() throws IOException {
        List<String> missing = new ArrayList<>();
        int links = 0;
        for (String line : Files.readAllLines(DOCS.resolve("contract-index.md"))) {
            Matcher link = LINK.matcher(line);
            while (link.find()) {
                links++;
                if (!Files.isRegularFile(DOCS.resolve(link.group(1)))) {
                    missing.add(link.group(1));
                }
            }
        }
        assertEquals(List.of(), missing, "docs/contract-index.md links to files that do not exist");
        assertEquals(true, links > 0, "docs/contract-index.md links to no file");
    }

    /** Every row of the index that is not filled, an empty cell of classes or tests. */
    @Test
    void everyRowNamesItsClassesAndItsTests() throws IOException {
        List<String> empty = new ArrayList<>();
        for (String line : Files.readAllLines(DOCS.resolve("contract-index.md"))) {
            if (ROW.matcher(line).find()) {
                String[] cells = line.split(" \\| ");
                if (cells.length != 3 || !LINK.matcher(cells[1]).find() || !LINK.matcher(cells[2]).find()) {
                    empty.add(line);
                }
            }
        }
        assertEquals(List.of(), empty, "rows of docs/contract-index.md without a class or a test");
    }

    static Map<String, List<String>> rows() throws IOException {
        Map<String, List<String>> rows = new LinkedHashMap<>();
        List<String> current = null;
        for (String line : Files.readAllLines(DOCS.resolve("contract-index.md"))) {
            Matcher section = FILE_SECTION.matcher(line);
            if (section.matches()) {
                current = rows.computeIfAbsent(section.group(1), file -> new ArrayList<>());
                continue;
            }
            Matcher row = ROW.matcher(line);
            if (current != null && row.find()) {
                current.add(row.group(1).strip());
            }
        }
        return rows;
    }

    static Path specDirectory() {
        String named = System.getProperty("contract.spec.dir");
        return named != null && !named.isBlank() ? Path.of(named) : Path.of("..", "..", "shared", "spec");
    }
}
