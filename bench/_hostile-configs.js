// The generated hostile configurations of bench/validate-speed.js: each at most MAX_BYTES (2 MB),
// each built so that loading does as much work per byte as it can — a key per line that nothing
// knows, an error per entry, entries that all name one repository, merge keys and aliases. Files
// starting with `_` are not scenarios (bench/run.js skips them).

/** The most a configuration may weigh and still be held to the two seconds. */
export const MAX_BYTES = 2_000_000;

/** Lines until the text would pass `bytes`. */
function fill(head, line, bytes) {
  const lines = [...head];
  let size = lines.reduce((total, text) => total + text.length + 1, 0);
  for (let index = 0; ; index++) {
    const next = line(index);
    if (size + next.length + 1 > bytes) break;
    lines.push(next);
    size += next.length + 1;
  }
  return `${lines.join("\n")}\n`;
}

/** name → text, each at most `bytes`. */
export function hostileConfigs(bytes = MAX_BYTES) {
  const pad = (index) => String(index).padStart(6, "0");
  return {
    // The case (#35): 100,000 unknown keys under defaults, each wanting a "did you mean".
    "unknown-keys": fill(["version: 1", "defaults:"], (i) => `  unknown${pad(i)}: 1`, bytes),
    // Unknown keys one level down, where a kind's own closed mapping refuses them.
    "unknown-settings": fill(
      ["version: 1", "repositories:", "  - name: acme/api", "    settings:"],
      (i) => `      has_wik${pad(i)}: true`,
      bytes,
    ),
    // An error of another shape on every entry: a value of the wrong type.
    "wrong-types": fill(
      ["version: 1", "repositories:"],
      (i) => `  - {name: acme/r${pad(i)}, settings: {has_wiki: maybe}}`,
      bytes,
    ),
    // Valid, and all naming one repository: every entry is resolved and merged.
    "one-repository": fill(["version: 1", "repositories:"], () => "- name: acme/api", bytes),
    // Valid: merge keys over one anchored default, each an alias to resolve.
    "merge-keys": fill(
      [
        "version: 1",
        "profiles:",
        "  base: &base {branch_protection: {main: {enforce_admins: true}}}",
        "repositories:",
      ],
      (i) => `  - {name: acme/r${pad(i)}, <<: *base}`,
      bytes,
    ),
    // Environment references everywhere, none of them set.
    references: fill(
      ["version: 1", "repositories:"],
      (i) => `  - {name: acme/r${pad(i)}, settings: {description: "\${UNSET_${pad(i)}}"}}`,
      bytes,
    ),
    // Shapes js-yaml's events are declined for, so the YAML library parses them, each with two
    // problems an entry: an explicit key (missing name, unknown key), an empty entry.
    "explicit-keys": fill(["version: 1", "repositories:"], () => "  - ? a", bytes),
    "empty-entries": fill(["version: 1", "repositories:"], () => "  - ", bytes),
    // Lists in lists: each entry a list, not a mapping, with a list inside.
    "nested-lists": fill(["version: 1", "repositories:"], () => "  - - - a", bytes),
    // Valid entries, ten names over and over, each defining one setting: every entry past the
    // first ten is a conflict, found once the file is merged and placed at both definitions.
    conflicts: fill(
      ["version: 1", "repositories:"],
      (i) => `  - name: acme/r${i % 10}\n    settings: {description: d${i % 10}}`,
      bytes,
    ),
    // One error, nesting too deep at its start: found without tokenizing the whole file.
    "deep-flow": `version: 1\nrepositories: ${"[".repeat(bytes - 30)}\n`,
  };
}
