import { type Origin, type Path, formatOrigin, formatPath } from "./errors.js";
import { layerOf, mergeLayers } from "./merge.js";
import type { ScopedEntry } from "./model.js";
import type { SourceFile } from "./source.js";
import type { Defined, SettingSpec } from "./spec.js";

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

interface Named {
  entry: ScopedEntry;
  /** Target and name as written, lower-cased: entries with the same key select the same repositories. */
  key: string;
  name: string;
}

/**
 * Several entries may name the same repository (or the same glob) as long as each resource is
 * defined by one of them: they are merged in file order by the one merge policy, so a resource two of
 * them define would depend on their order. Defaults sit under every entry once and never conflict.
 * Checked by map, so a file of many entries for one repository stays linear.
 */
export class RepositoryConflicts {
  readonly #entries: Named[] = [];
  /**
   * The first entry of each key, and whether its definitions are recorded in `#firsts`: only once a
   * second entry of the key comes, since most keys (a repository each) have one entry and what it
   * defines can then meet nothing else.
   */
  readonly #keys = new Map<string, { first: Named; recorded: boolean }>();
  /**
   * The first definition of each resource of a key with several entries: located only when
   * another one is found, and once (`described`) however many are.
   */
  readonly #firsts = new Map<string, { entry: ScopedEntry; path: Path; described?: string }>();

  /** Each setting by its key, with its place in the kinds' order. */
  readonly #settings: Map<string, { setting: SettingSpec; order: number }>;

  constructor(
    private readonly sink: ErrorSink,
    settings: readonly SettingSpec[],
  ) {
    this.#settings = new Map(settings.map((setting, order) => [setting.key, { setting, order }]));
  }

  add(named: Named): void {
    this.#entries.push(named);
    const seen = this.#keys.get(named.key);
    if (seen === undefined) {
      this.#keys.set(named.key, { first: named, recorded: false });
      // Alone so far, it can only define a resource twice itself.
      const definitions = this.#definitions(named);
      if (definitions.reduce((count, { defined }) => count + defined.length, 0) > 1) {
        this.#check(named, named.name, definitions, new Map(), true);
      }
      return;
    }
    if (!seen.recorded) {
      // Its own repeats were reported when it came.
      this.#check(seen.first, seen.first.name, this.#definitions(seen.first), this.#firsts, false);
      seen.recorded = true;
    }
    this.#check(named, seen.first.name, this.#definitions(named), this.#firsts, true);
  }

  /** What an entry defines, by the setting that defines it. */
  #definitions(named: Named): Array<{ setting: string; defined: readonly Defined[] }> {
    // Only read: an entry without profiles is its own layer, not worth a copy per entry.
    const layers = named.entry.layers;
    const own = (layers.length === 1 ? layers[0]!.value : mergeLayers(layers)) as Record<
      string,
      unknown
    >;
    return this.#written(own).map((setting) => ({
      setting: setting.key,
      defined: setting.defines(own[setting.key]),
    }));
  }

  /**
   * Records `definitions` in `firsts` (keyed within the entry's key) where none came before, and,
   * with `report`, each that did as an error naming `shownName` and the first definition.
   */
  #check(
    named: Named,
    shownName: string,
    definitions: ReadonlyArray<{ setting: string; defined: readonly Defined[] }>,
    firsts: Map<string, { entry: ScopedEntry; path: Path; described?: string }>,
    report: boolean,
  ): void {
    for (const { setting, defined } of definitions) {
      for (const { id, path: within, what } of defined) {
        const key = `${named.key}|${setting}|${id}`;
        const path = [setting, ...within];
        const first = firsts.get(key);
        if (first === undefined) firsts.set(key, { entry: named.entry, path });
        else if (report) {
          first.described ??= describePlace(this.#place(first.entry, first.path));
          this.sink.error(
            this.#place(named.entry, path),
            `${what} of ${shownName} is also defined at ${first.described}; define it in one place`,
          );
        }
      }
    }
  }

  /**
   * The settings `own` writes, in the kinds' order: from its own keys, a few, rather than from every
   * kind's, for each of up to 100,000 entries.
   */
  #written(own: Record<string, unknown>): SettingSpec[] {
    const written: Array<{ setting: SettingSpec; order: number }> = [];
    for (const key in own) {
      const known = this.#settings.get(key);
      if (known !== undefined && own[key] !== undefined) written.push(known);
    }
    if (written.length > 1) written.sort((a, b) => a.order - b.order);
    return written.map((known) => known.setting);
  }

  finish(): ScopedEntry[] {
    return this.#entries.map((named) => named.entry);
  }

  #place(entry: ScopedEntry, path: Path): Place {
    const layer = layerOf(entry.layers, path) ?? entry.layers[entry.layers.length - 1]!;
    return this.sink.place(layer.source, [...layer.path, ...path]);
  }
}

/** Records definitions of resources that must be defined once, across all files. */
export class DefinedOnce {
  readonly #places = new Map<string, Place>();
  constructor(private readonly sink: ErrorSink) {}

  once(key: string, place: Place, what: string): void {
    const first = this.#places.get(key);
    if (first === undefined) this.#places.set(key, place);
    else this.sink.error(place, `${what} is also listed at ${describePlace(first)}; list it once`);
  }
}
