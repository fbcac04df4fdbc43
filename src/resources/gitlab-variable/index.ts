import { selectedName } from "../../config/glob.js";
import { groupPath, projectPath } from "../gitlab-paths.js";
import type { ResourceReader } from "../context.js";
import { defineKind } from "../kind.js";
import {
  INSTANCE_PATH,
  listInstanceVariables,
  listVariables,
  verifyVariable,
} from "./canonical.js";
import { variableGraphql } from "./graphql.js";
import { planVariables, type VariablePlace } from "./plan.js";
import { INSTANCE_VALUE_LIMIT, instanceVariablesSetting, variablesSetting } from "./settings.js";
import { exportInstanceVariables, exportVariables } from "./export.js";

/** A project's or a group's variables: every request about one names its environment scope. */
function placeOf(reader: ResourceReader, path: string, what: string): VariablePlace {
  return { path, what, scoped: true, list: () => listVariables(reader, path) };
}

/**
 * GitLab CI/CD variables of projects, groups and the instance (issue #37, item 2): `variables:
 * {mode, items}` keyed by `KEY` or `KEY@environment-scope` (the instance's by `KEY`: it has no
 * scopes), each value a `${NAME}` reference compared exactly and never printed (a hidden one by
 * presence, sent again only when rotated); `null` deletes one; `authoritative` deletes the place's
 * variables not listed, under the removal caps.
 */
export const gitlabVariableKind = defineKind({
  name: "gitlab_variable",
  project: {
    setting: variablesSetting,
    plan: ({ reader, at, value, options }) => {
      const scope = selectedName(at.owner, at.name);
      return planVariables({
        reader,
        scope,
        place: placeOf(reader, `${projectPath(at)}/variables`, scope),
        value,
        rotation: options,
        deleted: options.deleted?.at(reader.target, scope, "gitlab_variable") ?? [],
      });
    },
    export: (reader, at) =>
      exportVariables(
        reader,
        `${projectPath(at)}/variables`,
        at.owner === "" ? `project ${at.name}` : `${at.owner}/${at.name}`,
      ),
    graphql: variableGraphql,
  },
  group: {
    setting: variablesSetting,
    plan: ({ reader, at, value, options }) =>
      planVariables({
        reader,
        scope: at,
        place: placeOf(reader, `${groupPath(at)}/variables`, at),
        value,
        rotation: options,
        deleted: options.deleted?.at(reader.target, at, "gitlab_variable") ?? [],
      }),
    export: (reader, at) =>
      exportVariables(reader, `${groupPath(at)}/variables`, /^\d+$/.test(at) ? `group ${at}` : at),
  },
  instance: {
    setting: instanceVariablesSetting,
    plan: ({ reader, at, value, options }) =>
      planVariables({
        reader,
        scope: at,
        place: {
          path: INSTANCE_PATH,
          what: "the instance",
          scoped: false,
          valueLimit: INSTANCE_VALUE_LIMIT,
          list: () => listInstanceVariables(reader),
        },
        value,
        rotation: options,
        deleted: options.deleted?.at(reader.target, at, "gitlab_variable") ?? [],
      }),
    export: exportInstanceVariables,
  },
  verify: verifyVariable,
});
