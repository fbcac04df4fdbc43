import { addressOf } from "../core/plan.js";
import { isSecret, SENSITIVE } from "../core/secret.js";
import { type Origin, type Path, formatOrigin, formatPath } from "./errors.js";
import { valueAt } from "./issues.js";
import { layerOf, leafPaths } from "./merge.js";
import { FAMILY_NAMES } from "./fields.js";
import { selectedName } from "./glob.js";
import { type DesiredState, type ScopedEntry, scopeState, type SettingsLayer } from "./model.js";
import { SELECTING_SCOPES } from "./scopes.js";
import type { ConfigSpec, PrintBlock } from "./spec.js";

interface Row {
  key: string;
  value: string;
  /** file:line and the layer it came from, or "default". */
  from: string;
}

/**
 * The fully merged desired state, one block per resource, each value with the file:line (and the
 * layer: defaults, a profile or the entry) it came from. Secrets print as "(sensitive)". Which
 * resources a value holds is the kind's to say (its `print`); addresses are built by `addressOf`.
 */
export function printDesiredState(state: DesiredState, spec: ConfigSpec): string {
  const blocks: string[] = [
    state.targets
      .map(
        (target) =>
          `target ${target.name}: ${FAMILY_NAMES[target.type]} ${target.baseUrl}, token from ${target.tokenEnv} (${target.token === undefined ? "not set" : "set"})`,
      )
      .join("\n"),
  ];
  for (const scope of SELECTING_SCOPES) {
    const { defaults, entries } = scopeState(state, scope);
    for (const entry of entries) blocks.push(...scopedBlocks(entry, defaults, spec));
  }
  for (const entry of state.sections) {
    const section = spec.sections.find((candidate) => candidate.at.join(".") === entry.section);
    if (section === undefined) continue;
    const scope = section.scope(entry.value);
    for (const wanted of section.print(entry.value)) {
      blocks.push(
        render(wanted, entry.target, scope, "", [entry.layer], entry.value, [], entry.origin),
      );
    }
  }
  return `${blocks.join("\n\n")}\n`;
}

function scopedBlocks(
  entry: ScopedEntry,
  defaults: readonly SettingsLayer[],
  spec: ConfigSpec,
): string[] {
  const selector = entry.selector;
  const scope = selectedName(
    selector.owner,
    selector.kind === "name" ? selector.repo : selector.pattern,
  );
  const where = Object.entries(selector.kind === "glob" ? (selector.properties ?? {}) : {}).map(
    ([name, values]) => `${name}=${values.join("|")}`,
  );
  const note =
    selector.kind === "glob"
      ? ` (glob${where.length > 0 ? ` where ${where.join(", ")}` : ""}${selector.exclude.length > 0 ? `, excluding ${selector.exclude.join(", ")}` : ""})`
      : "";
  const layers = [...defaults, ...entry.layers];
  const blocks: string[] = [];
  for (const setting of spec.settings[entry.scope]) {
    const value = entry.settings[setting.key];
    if (value === undefined) continue;
    for (const wanted of setting.print(value)) {
      blocks.push(
        render(wanted, entry.target, scope, note, layers, value, [setting.key], entry.origin),
      );
    }
  }
  return blocks;
}

function render(
  wanted: PrintBlock,
  target: string,
  scope: string,
  note: string,
  layers: readonly SettingsLayer[],
  /** The merged value the block's path is relative to; it sits at `prefix` in the layers. */
  root: unknown,
  prefix: Path,
  fallback: Origin,
): string {
  const base = [...prefix, ...wanted.path];
  const origin = originOf(layers, base) ?? fallback;
  const value = valueAt(root, wanted.path);
  const rows: Row[] = [];
  for (const [key, said] of wanted.means ?? []) rows.push(row(key, JSON.stringify(said), origin));
  if (wanted.fixed !== undefined) {
    for (const [key, said] of wanted.fixed) rows.push(row(key, JSON.stringify(said), origin));
  } else if (value === null) {
    rows.push(row("value", "null (must be absent)", origin));
  } else {
    for (const leaf of leafPaths(value)) {
      const path = [...base, ...leaf];
      const layer = layerOf(layers, path);
      // A value's row names the line of its key: a list written as a block starts a line below.
      rows.push(
        row(
          formatPath(leaf),
          shown(valueAt(value, leaf)),
          originOf(layers, path, "key"),
          layer?.label,
        ),
      );
    }
  }
  for (const [key, byDefault] of wanted.defaults ?? []) {
    if (!rows.some((existing) => existing.key === key)) {
      rows.push({ key, value: JSON.stringify(byDefault), from: "default" });
    }
  }
  return block(`${addressOf(target, scope, wanted.kind, wanted.name)}${note}`, origin, rows);
}

function originOf(
  layers: readonly SettingsLayer[],
  path: Path,
  at: "key" | "value" = "value",
): Origin | undefined {
  const layer = layerOf(layers, path);
  return layer?.source.locate([...layer.path, ...path], at);
}

function shown(value: unknown): string {
  if (isSecret(value)) return `${SENSITIVE} from ${value.source}`;
  return JSON.stringify(value);
}

function row(key: string, value: string, origin: Origin | undefined, label = "entry"): Row {
  return { key, value, from: origin === undefined ? "" : `${formatOrigin(origin)} (${label})` };
}

function block(title: string, origin: Origin, rows: readonly Row[]): string {
  const width = Math.max(0, ...rows.map((line) => line.key.length + line.value.length + 3));
  const lines = rows.map((line) =>
    `  ${`${line.key} = ${line.value}`.padEnd(width)}  ${line.from}`.trimEnd(),
  );
  return [`${title}  (${formatOrigin(origin)})`, ...lines].join("\n");
}
