import { type Origin, type Path, formatOrigin, formatPath } from "./errors.js";
import { layerOf } from "./merge.js";
import type { RepositoryEntry } from "./model.js";
import type { SourceLayer } from "./resolve.js";
import type { SourceFile } from "./source.js";

/** A place something was written: the file position and the key path, for "also defined at" messages. */
export interface Place {
  origin: Origin;
  path: Path;
}

export const describePlace = (place: Place) =>
  `${formatOrigin(place.origin)} (${formatPath(place.path)})`;

/** Where conflicts are reported. */
export interface ErrorSink {
  place(source: SourceFile, path: Path): Place;
  error(place: Place, message: string): void;
}

export interface ResolvedRepository {
  entry: RepositoryEntry;
  layers: SourceLayer[];
  /** Whether the entry's own choices (profiles or keys) write this settings path. */
  owns(path: Path): boolean;
  key: string;
  name: string;
}

/**
 * Several entries may name the same repository (or the same glob) as long as each resource is
 * defined by one of them. A resource an entry only has from defaults gives way to an entry that
 * defines it; the first entry keeps what none of them defines.
 */
export class RepositoryConflicts {
  readonly #resolved: ResolvedRepository[] = [];
  constructor(private readonly resolver: ErrorSink) {}

  add(resolved: ResolvedRepository): void {
    this.#resolved.push(resolved);
  }

  finish(): RepositoryEntry[] {
    const groups = new Map<string, ResolvedRepository[]>();
    for (const resolved of this.#resolved) {
      const group = groups.get(resolved.key);
      if (group === undefined) groups.set(resolved.key, [resolved]);
      else group.push(resolved);
    }
    for (const group of groups.values()) if (group.length > 1) this.#settle(group);
    return this.#resolved.map((resolved) => resolved.entry);
  }

  #place(resolved: ResolvedRepository, path: Path): Place {
    const layer = layerOf(resolved.layers, path) ?? resolved.layers[resolved.layers.length - 1]!;
    return this.resolver.place(layer.source, [...layer.path, ...path]);
  }

  #settle(group: ResolvedRepository[]): void {
    const name = group[0]!.name;
    // One pass over the group builds each branch's list: filtering the group per branch would be
    // quadratic when thousands of entries name the same repository with different branches.
    const byBranch = new Map<string, ResolvedRepository[]>();
    for (const resolved of group) {
      for (const branch of Object.keys(resolved.entry.branchProtection)) {
        const having = byBranch.get(branch);
        if (having === undefined) byBranch.set(branch, [resolved]);
        else having.push(resolved);
      }
    }
    for (const [branch, having] of byBranch) {
      this.#single(
        having,
        ["branch_protection", branch],
        `the protection of branch ${branch} of ${name}`,
        (resolved) => delete resolved.entry.branchProtection[branch],
      );
    }
    this.#single(
      group.filter((resolved) => resolved.entry.invitations !== undefined),
      ["invitations"],
      `the invitation audit of ${name}`,
      (resolved) => delete resolved.entry.invitations,
    );
    this.#webhooks(group, name);
  }

  /** Keeps one definition of a resource among entries that have it; two that define it are an error. */
  #single(
    having: ResolvedRepository[],
    path: Path,
    what: string,
    drop: (resolved: ResolvedRepository) => void,
  ): void {
    const owners = having.filter((resolved) => resolved.owns(path));
    const [first, ...others] = owners;
    if (first !== undefined && others.length > 0) {
      const also = `${what} is also defined at ${describePlace(this.#place(first, path))}; define it in one place`;
      for (const other of others) this.resolver.error(this.#place(other, path), also);
    }
    const keeper = first ?? having[0];
    for (const resolved of having) if (resolved !== keeper && !resolved.owns(path)) drop(resolved);
  }

  #webhooks(group: ResolvedRepository[], name: string): void {
    const having = group.filter((resolved) => resolved.entry.webhooks !== undefined);
    const owners = having.filter((resolved) => resolved.owns(["webhooks"]));
    const keepers = owners.length > 0 ? owners : having.slice(0, 1);
    const kept = new Set(keepers);
    for (const resolved of having) if (!kept.has(resolved)) delete resolved.entry.webhooks;
    const authoritative = keepers.findIndex(
      (resolved) => resolved.entry.webhooks?.mode === "authoritative",
    );
    if (authoritative >= 0 && keepers.length > 1) {
      // The other list is the first keeper that is not the authoritative one.
      const other = authoritative === 0 ? 1 : 0;
      const [later, earlier] =
        other > authoritative
          ? [keepers[other]!, keepers[authoritative]!]
          : [keepers[authoritative]!, keepers[other]!];
      this.resolver.error(
        this.#place(later, ["webhooks"]),
        `the webhooks of ${name} are also listed at ${describePlace(this.#place(earlier, ["webhooks"]))}; authoritative webhooks must be listed in one place`,
      );
      return;
    }
    const defined = new Map<string, { place: Place; by: ResolvedRepository }>();
    for (const resolved of keepers) {
      resolved.entry.webhooks!.hooks.forEach((hook, index) => {
        const place = this.#place(resolved, ["webhooks", "hooks", index]);
        const keys = [`url ${hook.url}`, ...(hook.id === undefined ? [] : [`id ${hook.id}`])];
        const clash = keys.map((key) => defined.get(key)).find((first) => first !== undefined);
        // Repeats inside one entry are reported where its hooks are read.
        if (clash !== undefined && clash.by !== resolved) {
          this.resolver.error(
            place,
            `the hook ${hook.url} of ${name} is also defined at ${describePlace(clash.place)}; define it in one place`,
          );
        }
        for (const key of keys) if (!defined.has(key)) defined.set(key, { place, by: resolved });
      });
    }
  }
}

/** Records definitions of resources that must be defined once, across all files. */
export class DefinedOnce {
  readonly #places = new Map<string, Place>();
  constructor(private readonly resolver: ErrorSink) {}

  once(key: string, place: Place, what: string): void {
    const first = this.#places.get(key);
    if (first === undefined) this.#places.set(key, place);
    else
      this.resolver.error(place, `${what} is also listed at ${describePlace(first)}; list it once`);
  }
}
