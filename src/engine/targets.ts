import { selectedName } from "../config/glob.js";
import type { SettingSpec } from "../config/spec.js";
import { addressOf } from "../core/plan.js";
import { SCOPED_KINDS } from "../resources/index.js";
import type { Expansion } from "./expand.js";
import { keepParts } from "./setting-parts.js";

/**
 * `--target ADDRESS`: act on the resources whose address matches one of the patterns. A pattern is
 * an address with globs: `*` any run of characters, slashes too (a star, then
 * `/branch_protection/main`, is that branch's protection in every repository), `?` one character,
 * `[…]` one of a class. Before anything is read, whatever no pattern could reach is dropped — an
 * owner's repositories are not listed, a repository's kinds not read — so a targeted plan costs
 * what its targets cost.
 */
type Token = { kind: "char"; char: string } | { kind: "any" } | { kind: "star" } | ClassToken;
interface ClassToken {
  kind: "class";
  negated: boolean;
  ranges: Array<[string, string]>;
}

function tokenize(pattern: string): Token[] {
  const tokens: Token[] = [];
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern[index]!;
    if (char === "*") {
      if (tokens.at(-1)?.kind !== "star") tokens.push({ kind: "star" });
    } else if (char === "?") {
      tokens.push({ kind: "any" });
    } else if (char === "[" && pattern.indexOf("]", index + 2) > index) {
      const end = pattern.indexOf("]", index + 2);
      let body = pattern.slice(index + 1, end);
      const negated = body.startsWith("!") || body.startsWith("^");
      if (negated) body = body.slice(1);
      const ranges: Array<[string, string]> = [];
      for (let at = 0; at < body.length; at++) {
        const from = body[at]!;
        if (body[at + 1] === "-" && at + 2 < body.length) {
          ranges.push([from, body[at + 2]!]);
          at += 2;
        } else ranges.push([from, from]);
      }
      tokens.push({ kind: "class", negated, ranges });
      index = end;
    } else {
      tokens.push({ kind: "char", char });
    }
  }
  return tokens;
}

function accepts(token: Token, char: string): boolean {
  switch (token.kind) {
    case "char":
      return token.char === char;
    case "any":
    case "star":
      return true;
    case "class": {
      const inside = token.ranges.some(([from, to]) => char >= from && char <= to);
      return inside !== token.negated;
    }
  }
}

/** The positions reachable without reading a character: a star may match nothing. */
function closure(tokens: readonly Token[], positions: Iterable<number>): Set<number> {
  const reached = new Set<number>();
  const pending = [...positions];
  while (pending.length > 0) {
    const position = pending.pop()!;
    if (reached.has(position)) continue;
    reached.add(position);
    if (tokens[position]?.kind === "star") pending.push(position + 1);
  }
  return reached;
}

/** The pattern's positions after reading `text` (empty: no way on). */
function run(tokens: readonly Token[], text: string): Set<number> {
  let positions = closure(tokens, [0]);
  for (const char of text) {
    const next: number[] = [];
    for (const position of positions) {
      const token = tokens[position];
      if (token === undefined || !accepts(token, char)) continue;
      next.push(token.kind === "star" ? position : position + 1);
    }
    positions = closure(tokens, next);
    if (positions.size === 0) break;
  }
  return positions;
}

export class TargetFilter {
  readonly patterns: readonly string[];
  readonly #tokens: Token[][];

  constructor(patterns: readonly string[]) {
    this.patterns = patterns;
    this.#tokens = patterns.map(tokenize);
  }

  /** Whether a pattern matches the whole address. */
  matches(address: string): boolean {
    return this.#tokens.some((tokens) => run(tokens, address).has(tokens.length));
  }

  /** Whether some address that starts with `prefix` could match a pattern. */
  reaches(prefix: string): boolean {
    return this.#tokens.some((tokens) => run(tokens, prefix).size > 0);
  }
}

/**
 * The part of an expansion the targets reach, each repository's (or project's) settings cut down to what they
 * name where a setting's resources can be cut apart (each printed resource is a part it defines,
 * as a branch's protection is); other settings are kept whole and their changes filtered after.
 */
export function targetedRepos(expansion: Expansion, filter: TargetFilter): Expansion["repos"] {
  const repos: Expansion["repos"] = [];
  for (const repo of expansion.repos) {
    const scope = selectedName(repo.owner, repo.name);
    const settings: Record<string, unknown> = {};
    for (const kind of SCOPED_KINDS[repo.scope]) {
      const setting = kind.part.setting;
      const value = repo.settings[setting.key];
      if (value === undefined) continue;
      if (!filter.reaches(`${repo.target}/${scope}/${kind.name}/`)) continue;
      settings[setting.key] = narrowed(value, setting, (name, blockKind) =>
        filter.matches(addressOf(repo.target, scope, blockKind, name)),
      );
    }
    if (Object.keys(settings).length > 0) repos.push({ ...repo, settings });
  }
  return repos;
}

function narrowed(
  value: unknown,
  setting: SettingSpec,
  named: (name: string, kind: string) => boolean,
): unknown {
  const defined = setting.defines(value).map((part) => JSON.stringify(part.path));
  const blocks = setting.print(value);
  const separable = blocks.every((block) => defined.includes(JSON.stringify(block.path)));
  if (!separable) return value;
  const wanted = blocks.filter((block) => named(block.name, block.kind));
  // Nothing it names is targeted, but what it reads may be (a pattern reaching the kind).
  return wanted.length === 0
    ? value
    : keepParts(
        value,
        wanted.map((block) => block.path),
      );
}
