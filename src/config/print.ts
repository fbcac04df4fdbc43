import { SENSITIVE } from "../core/secret.js";
import { type Origin, type Path, formatOrigin, formatPath } from "./errors.js";
import { SECRET_KEYS } from "./interpolate.js";
import { isMapping, layerOf, leafPaths, mergeLayers } from "./merge.js";
import type { DesiredState, RepositoryEntry } from "./model.js";
import type { LayerIndex, SourceLayer } from "./resolve.js";
import { valueAt } from "./issues.js";

interface Row {
  key: string;
  value: string;
  /** file:line and the layer it came from, or "default". */
  from: string;
}

/**
 * The fully merged desired state, one block per resource, each value with the file:line (and the
 * layer: defaults, a profile or the entry) it came from. Secrets print as "(sensitive)".
 */
export function printDesiredState(state: DesiredState, layers: LayerIndex): string {
  const blocks: string[] = [
    state.targets
      .map(
        (target) =>
          `target ${target.name}: ${target.type} ${target.baseUrl}, token from ${target.tokenEnv} (${target.token === undefined ? "not set" : "set"})`,
      )
      .join("\n"),
  ];
  for (const entry of state.repositories)
    blocks.push(...repositoryBlocks(entry, layers.get(entry) ?? []));
  for (const project of state.projects) {
    const [layer] = layers.get(project) ?? [];
    project.boardsAbsent.forEach((board, index) => {
      const name = "id" in board ? `#${board.id}` : board.name;
      const origin =
        layer?.source.locate([...layer.path, "boards_absent", index]) ?? project.origin;
      blocks.push(
        block(`${project.target}/${project.project}/board/${name}`, origin, [
          row("must be absent", "true", origin),
        ]),
      );
    });
  }
  for (const group of state.groups) {
    const [layer] = layers.get(group) ?? [];
    group.epicLinksAbsent.forEach((link, index) => {
      const name =
        "linkId" in link
          ? `link-${link.linkId}`
          : `${link.epic}-${link.relatedGroup === undefined ? "" : `${link.relatedGroup}#`}${link.related}`;
      const origin =
        layer?.source.locate([...layer.path, "epic_links_absent", index]) ?? group.origin;
      blocks.push(
        block(`${group.target}/${group.group}/epic_link/${name}`, origin, [
          row("must be absent", "true", origin),
        ]),
      );
    });
  }
  for (const gist of state.gists) {
    blocks.push(
      singleLayerBlock(
        `${gist.target}/(authenticated user)/gist/policy`,
        gist.origin,
        layers.get(gist),
        [["allow_public", gist.allowPublic]],
      ),
    );
  }
  for (const migration of state.migrations) {
    const owner = "org" in migration.owner ? migration.owner.org : "(authenticated user)";
    blocks.push(
      singleLayerBlock(
        `${migration.target}/${owner}/migration/${migration.id}`,
        migration.origin,
        layers.get(migration),
        [],
      ),
    );
  }
  return `${blocks.join("\n\n")}\n`;
}

function repositoryBlocks(entry: RepositoryEntry, layers: readonly SourceLayer[]): string[] {
  const selector = entry.selector;
  const prefix =
    selector.kind === "name"
      ? `${entry.target}/${selector.owner}/${selector.repo}`
      : `${entry.target}/${selector.owner}/${selector.pattern}`;
  const note =
    selector.kind === "glob"
      ? ` (glob${selector.exclude.length > 0 ? `, excluding ${selector.exclude.join(", ")}` : ""})`
      : "";
  const merged = mergeLayers(layers);
  const blocks: string[] = [];
  for (const [branch, settings] of Object.entries(entry.branchProtection)) {
    const base = ["branch_protection", branch];
    const origin = originOf(layers, base) ?? entry.origin;
    const rows =
      settings === null
        ? [row("protection", "null (the branch must be unprotected)", origin)]
        : leafPaths(settings).map((leaf) =>
            leafRow(layers, [...base, ...leaf], leaf, valueAt(settings, leaf)),
          );
    blocks.push(block(`${prefix}/branch_protection/${branch}${note}`, origin, rows));
  }
  if (entry.webhooks !== undefined) {
    const hooksLayer = layerOf(layers, ["webhooks", "hooks"]);
    const modeRow =
      layerOf(layers, ["webhooks", "mode"]) === undefined
        ? { key: "mode", value: JSON.stringify(entry.webhooks.mode), from: "default" }
        : leafRow(layers, ["webhooks", "mode"], ["mode"], entry.webhooks.mode);
    blocks.push(
      block(`${prefix}/webhooks${note}`, originOf(layers, ["webhooks"]) ?? entry.origin, [modeRow]),
    );
    entry.webhooks.hooks.forEach((hook, index) => {
      const raw = valueAt(merged, ["webhooks", "hooks", index]);
      const rows = leafPaths(raw).map((leaf) => {
        const path = ["webhooks", "hooks", index, ...leaf];
        const origin = hooksLayer!.source.locate([...hooksLayer!.path, ...path]);
        return row(formatPath(leaf), shown(leaf, valueAt(raw, leaf)), origin, hooksLayer!.label);
      });
      blocks.push(block(`${prefix}/webhook/${hook.id ?? hook.url}${note}`, hook.origin, rows));
    });
  }
  if (entry.invitations !== undefined) {
    const raw = valueAt(merged, ["invitations"]);
    const rows = leafPaths(raw).map((leaf) =>
      leafRow(layers, ["invitations", ...leaf], leaf, valueAt(raw, leaf)),
    );
    if (isMapping(raw) && raw.report_expired === undefined) {
      rows.push({ key: "report_expired", value: "true", from: "default" });
    }
    blocks.push(
      block(
        `${prefix}/invitation/policy${note}`,
        originOf(layers, ["invitations"]) ?? entry.origin,
        rows,
      ),
    );
  }
  return blocks;
}

function singleLayerBlock(
  title: string,
  origin: Origin,
  layers: readonly SourceLayer[] | undefined,
  defaults: Array<[string, unknown]>,
): string {
  const layer = layers?.[0];
  const rows =
    layer === undefined
      ? []
      : leafPaths(layer.value).map((leaf) =>
          leafRow([layer], leaf, leaf, valueAt(layer.value, leaf)),
        );
  for (const [key, value] of defaults) {
    if (!rows.some((existing) => existing.key === key))
      rows.push({ key, value: JSON.stringify(value), from: "default" });
  }
  return block(title, origin, rows);
}

function originOf(layers: readonly SourceLayer[], path: Path): Origin | undefined {
  const layer = layerOf(layers, path);
  return layer?.source.locate([...layer.path, ...path]);
}

function leafRow(layers: readonly SourceLayer[], path: Path, leaf: Path, value: unknown): Row {
  const layer = layerOf(layers, path);
  const origin = layer?.source.locate([...layer.path, ...path]);
  return row(formatPath(leaf), shown(leaf, value), origin, layer?.label);
}

function shown(leaf: Path, value: unknown): string {
  const key = leaf[leaf.length - 1];
  if (typeof key === "string" && SECRET_KEYS.has(key))
    return `${SENSITIVE} from ${String(value).slice(2, -1)}`;
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
