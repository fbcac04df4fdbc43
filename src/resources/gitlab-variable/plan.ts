import type { Change, ChangeError, DiffEntry, PlannedRequest, Rotation } from "../../core/plan.js";
import { SENSITIVE, type Secret } from "../../core/secret.js";
import { type MemberChange, planCollection } from "../collection.js";
import { diffValues } from "../diff.js";
import { fingerprint } from "../fingerprint.js";
import { rotates } from "../rotation.js";
import type { ReadResult, ResourceReader } from "../context.js";
import { type CanonicalFlags, flagsOf, type ReadVariable } from "./canonical.js";
import { maskingProblem } from "./masking.js";
import { type GitlabVariable, type GitlabVariables, identityOf, nameOf } from "./settings.js";

/**
 * Plans the CI/CD variables of a project, a group or the instance (`VariablePlace`) against one
 * listing. A project's or a group's variable is its key and environment scope; every request about
 * one names both (`filter[environment_scope]`), since GitLab answers 409 "There are multiple
 * variables with provided parameters. Please use 'filter[environment_scope]'" for a key that exists
 * in more than one scope (lib/api/helpers/variables_helpers.rb `find_variable`). The instance's are
 * keys alone, read as of the scope `*`, and its API takes neither scope nor filter
 * (lib/api/admin/ci/variables.rb).
 *
 * The value is compared exactly where GitLab returns it, and shown only as "(sensitive)"; a hidden
 * variable's (GitLab answers `value: null`) by presence, sent again only when rotated. The flags
 * written are compared and only those that differ are sent, with the value when it differs, in one
 * PUT. GitLab sets `masked_and_hidden` only on create (Ci::HidableVariable: "Only new variables can
 * be set as masked and hidden."), so a change of it deletes the variable and creates it again.
 */

const KIND = "gitlab_variable";

const UNVERIFIED =
  "the value is hidden on GitLab and could not be verified; send it again with --rotate-secrets or --rotate-secret NAME";
const RECREATED =
  "GitLab sets masked_and_hidden only when it creates a variable: it is deleted and created again with the value written";

const SET: DiffEntry = { path: "value", after: SENSITIVE, sensitive: true };
const CHANGED: DiffEntry = { path: "value", before: SENSITIVE, after: SENSITIVE, sensitive: true };
const ROTATED: DiffEntry = { path: "value", before: "hidden", after: "rotated", sensitive: true };
const REMOVED: DiffEntry = { path: "value", before: SENSITIVE, sensitive: true };

/** Where variables live, and what GitLab's API there takes. */
export interface VariablePlace {
  /** The listing and create path: `/api/v4/projects/:id/variables`, `/api/v4/admin/ci/variables`. */
  path: string;
  /** For messages: "acme/api", "the instance". */
  what: string;
  /**
   * Whether its variables have environment scopes (a project's and a group's), which every request
   * about one names; the instance's have none, and its API takes no filter.
   */
  scoped: boolean;
  /** The longest value GitLab keeps there, checked before anything is sent; undefined: none known. */
  valueLimit?: number;
  list(): Promise<ReadResult<ReadVariable[]>>;
}

/** The request path of one variable, its scope named (GitLab's `filter[environment_scope]`). */
function memberPath(place: VariablePlace, live: Pick<ReadVariable, "key" | "environment_scope">) {
  const path = `${place.path}/${encodeURIComponent(live.key)}`;
  if (!place.scoped) return path;
  return `${path}?filter[environment_scope]=${encodeURIComponent(live.environment_scope)}`;
}

/** The flags a value writes (a field not written is not managed). */
function writtenFlags(desired: GitlabVariable): Partial<CanonicalFlags> {
  const flags: Partial<CanonicalFlags> = {};
  if (desired.variable_type !== undefined) flags.variable_type = desired.variable_type;
  if (desired.protected !== undefined) flags.protected = desired.protected;
  if (desired.masked !== undefined) flags.masked = desired.masked;
  if (desired.masked_and_hidden !== undefined) flags.masked_and_hidden = desired.masked_and_hidden;
  if (desired.raw !== undefined) flags.raw = desired.raw;
  if (desired.description !== undefined) flags.description = desired.description;
  return flags;
}

/** The live flags of the fields `wanted` names, to compare with it. */
function compared(live: ReadVariable, wanted: Partial<CanonicalFlags>): Partial<CanonicalFlags> {
  const flags = flagsOf(live);
  return Object.fromEntries(
    Object.keys(wanted).map((field) => [field, flags[field as keyof CanonicalFlags]]),
  );
}

/** What a plan records of the live variable: its flags, and of its value only how it compares. */
function liveFingerprint(live: ReadVariable, value: "hidden" | "as written" | "other" | "set") {
  return fingerprint({ ...flagsOf(live), environment_scope: live.environment_scope, value });
}

/** The POST that creates a variable: the value as a reference, the scope, the flags written. */
function creation(place: VariablePlace, key: string, scope: string, desired: GitlabVariable) {
  const { masked_and_hidden, ...flags } = writtenFlags(desired);
  return {
    method: "POST" as const,
    path: place.path,
    body: {
      key,
      value: { $secret: desired.value.source },
      ...(place.scoped ? { environment_scope: scope } : {}),
      ...flags,
      ...(masked_and_hidden === true ? { masked_and_hidden: true } : {}),
    },
  };
}

function deletion(place: VariablePlace, live: ReadVariable, note: string): MemberChange {
  return {
    action: "delete",
    diff: [...diffValues(flagsOf(live), {}), REMOVED],
    requests: [{ method: "DELETE", path: memberPath(place, live) }],
    live_fingerprint: liveFingerprint(live, live.hidden === true ? "hidden" : "set"),
    notes: [note],
  };
}

/**
 * A value GitLab would refuse to hold (longer than the place keeps) or to mask, as an error on the
 * value written; the message never quotes the value.
 */
function valueError(
  place: VariablePlace,
  name: string,
  secret: Secret,
  masked: boolean,
  raw: boolean,
) {
  const value = secret.reveal();
  const field = ["items", name, "value"];
  if (place.valueLimit !== undefined && value.length > place.valueLimit) {
    const limit = place.valueLimit.toLocaleString("en-US");
    const error: ChangeError = {
      message: `the value of ${name} (\${${secret.source}}) is longer than the ${limit} characters GitLab keeps in a variable of ${place.what}`,
      field,
    };
    return { error };
  }
  if (!masked) return undefined;
  const problem = maskingProblem(value, raw);
  if (problem === undefined) return undefined;
  const error: ChangeError = {
    message: `the value of ${name} (\${${secret.source}}) cannot be masked: ${problem}`,
    field,
  };
  return { error };
}

function planItem(
  place: VariablePlace,
  name: string,
  desired: GitlabVariable | null,
  live: ReadVariable | undefined,
  rotation: Rotation,
): MemberChange {
  if (desired === null) {
    if (live === undefined) return { live_fingerprint: fingerprint(null) };
    return deletion(place, live, "null in the desired state");
  }
  const { key, scope } = identityOf(name);
  const wanted = writtenFlags(desired);
  if (live === undefined) {
    const refused = valueError(
      place,
      name,
      desired.value,
      desired.masked === true || desired.masked_and_hidden === true,
      desired.raw === true,
    );
    if (refused !== undefined) return refused;
    return {
      action: "create",
      diff: [SET, ...diffValues({}, wanted)],
      requests: [creation(place, key, scope, desired)],
      live_fingerprint: fingerprint(null),
    };
  }
  const hidden = live.hidden === true;
  const masked = desired.masked ?? desired.masked_and_hidden ?? live.masked;
  const raw = desired.raw ?? live.raw;
  if (desired.masked_and_hidden !== undefined && desired.masked_and_hidden !== hidden) {
    // Created again, it keeps what the value does not write (a hidden one stays masked).
    const carried: GitlabVariable = {
      variable_type: live.variable_type,
      protected: live.protected,
      raw: live.raw,
      description: live.description,
      ...(desired.masked_and_hidden ? {} : { masked: live.masked }),
      ...desired,
    };
    const refused = valueError(place, name, desired.value, carried.masked ?? true, raw);
    if (refused !== undefined) return refused;
    return {
      action: "update",
      diff: [...diffValues(compared(live, wanted), wanted), hidden ? ROTATED : CHANGED],
      requests: [
        { method: "DELETE", path: memberPath(place, live) },
        creation(place, key, scope, carried),
      ],
      live_fingerprint: liveFingerprint(live, hidden ? "hidden" : "other"),
      notes: [RECREATED],
    };
  }
  if (hidden && desired.masked === false) {
    return {
      error: {
        message: `${name} is masked and hidden, and GitLab keeps such a variable masked ("The visibility setting cannot be changed for masked and hidden variables."): write masked_and_hidden: false to make it visible (it is then deleted and created again)`,
        field: ["items", name, "masked"],
      },
    };
  }
  const sameValue = !hidden && live.value === desired.value.reveal();
  const planned = {
    live_fingerprint: liveFingerprint(live, hidden ? "hidden" : sameValue ? "as written" : "other"),
  };
  const resend = hidden ? rotates(rotation, name, key, desired.value.source) : !sameValue;
  // GitLab validates the value it will hold: the one written, unless a hidden one stays.
  if (!hidden || resend) {
    const refused = valueError(place, name, desired.value, masked, raw);
    if (refused !== undefined) return refused;
  }
  const diff = diffValues(compared(live, wanted), wanted);
  if (resend) diff.push(hidden ? ROTATED : CHANGED);
  const notes = hidden && !resend ? { notes: [UNVERIFIED] } : {};
  if (diff.length === 0) return { ...planned, ...notes };
  const body: Record<string, unknown> = {};
  for (const entry of diff) {
    if (entry.path === "value") body.value = { $secret: desired.value.source };
    else body[entry.path] = wanted[entry.path as keyof CanonicalFlags];
  }
  const request: PlannedRequest = { method: "PUT", path: memberPath(place, live), body };
  return { ...planned, ...notes, action: "update", diff, requests: [request] };
}

export function planVariables(input: {
  reader: ResourceReader;
  scope: string;
  place: VariablePlace;
  value: GitlabVariables;
  rotation: Rotation;
  deleted: readonly Change[];
}): Promise<Change[]> {
  const { reader, scope, place, value, rotation, deleted } = input;
  return planCollection<GitlabVariable | null, ReadVariable>({
    reader,
    scope,
    kind: KIND,
    what: `the CI/CD variables of ${place.what}`,
    mode: value.mode ?? "additive",
    members: Object.entries(value.items ?? {}).map(([name, desired]) => ({ name, desired })),
    path: place.path,
    list: () => place.list(),
    nameOf: (live) => nameOf(live.key, live.environment_scope),
    plan: ({ name, desired }, live) => planItem(place, name, desired, live, rotation),
    remove: (live) => ({
      name: nameOf(live.key, live.environment_scope),
      change: deletion(place, live, "not in the desired state (variables mode: authoritative)"),
    }),
    deleted,
  });
}
