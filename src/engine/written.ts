import { formatPath, type Path } from "../config/errors.js";
import { layerOf } from "../config/merge.js";
import type { ScopedEntry, SectionEntry, SettingsLayer } from "../config/model.js";
import type { SelectingScope } from "../config/spec.js";
import type { Change, ChangeError } from "../core/plan.js";
import { OWNER_KINDS, SCOPED_KINDS } from "../resources/index.js";

/**
 * A kind that finds a problem in a value the configuration wrote (a login that is no user, a role
 * the organization lacks) says which value, as a path within its own value (`error.field`); the
 * engine, which knows where every value was written, names the file, line and column there
 * (`error.written`), as configuration errors do.
 */

/**
 * The changes, each error about a written value positioned at it (and the error a change's need
 * becomes when unmet); `locate` finds a path's place.
 */
function positioned(
  changes: Change[],
  keyOf: (change: Change) => string | undefined,
  locate: (path: Path) => string | undefined,
): Change[] {
  const place = (change: Change, error: ChangeError): ChangeError => {
    if (error.field === undefined) return error;
    const { field, ...rest } = error;
    const key = keyOf(change);
    const at = locate(key === undefined ? field : [key, ...field]);
    return at === undefined ? rest : { ...rest, written: at };
  };
  if (changes.every(unplaced)) return changes;
  return changes.map((change) => {
    if (unplaced(change)) return change;
    return {
      ...change,
      ...(change.error && { error: place(change, change.error) }),
      ...(change.needs && {
        needs: { ...change.needs, otherwise: place(change, change.needs.otherwise) },
      }),
    };
  });
}

/** A change with nothing to position: no error, no need. */
function unplaced(change: Change): boolean {
  return change.error === undefined && change.needs === undefined;
}

function place(layers: readonly SettingsLayer[], path: Path): string | undefined {
  const layer = layerOf(layers, path);
  const origin = layer?.source.locate([...layer.path, ...path], "key");
  return origin && `${origin.file}:${origin.line}:${origin.column}: ${formatPath(path)}`;
}

/**
 * A repository's (or project's) changes, positioned in the layers that ask for its settings
 * (defaults first).
 */
export function positionedInRepository(
  changes: Change[],
  defaults: readonly SettingsLayer[],
  entries: readonly ScopedEntry[],
  scope: SelectingScope,
): Change[] {
  // The layers are gathered only for a change that has something to position: most have none.
  let layers: SettingsLayer[] | undefined;
  return positioned(
    changes,
    (change) => SCOPED_KINDS[scope].find((kind) => kind.name === change.kind)?.part.setting.key,
    (path) => {
      layers ??= [...defaults, ...entries.flatMap((entry) => entry.layers)];
      return place(layers, path);
    },
  );
}

/** The owner scope of an owner section's entries. */
const OWNER_SECTIONS: Readonly<Record<string, keyof typeof OWNER_KINDS>> = {
  organizations: "organization",
  groups: "group",
  instance: "instance",
};

/**
 * A section entry's changes; an organization's (a group's, an instance's) kinds sit under their key
 * of the entry.
 */
export function positionedInSection(changes: Change[], entry: SectionEntry): Change[] {
  const owner = OWNER_SECTIONS[entry.section];
  return positioned(
    changes,
    (change) =>
      owner === undefined
        ? undefined
        : OWNER_KINDS[owner].find((kind) => kind.name === change.kind)?.part.setting.key,
    (path) => place([entry.layer], path),
  );
}
