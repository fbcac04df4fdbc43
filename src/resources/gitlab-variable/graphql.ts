import * as z from "zod";
import { projectPath } from "../gitlab-paths.js";
import { projectListing } from "../graphql-read.js";
import type { GitlabVariables } from "./settings.js";

/**
 * A project's CI/CD variables over GitLab's GraphQL API: `ciVariables` (CiProjectVariable, every
 * field the REST listing's Ci::Variable entity answers: doc/api/graphql/reference, "CiProjectVariable";
 * lib/api/entities/ci/variable.rb) stands for `GET /projects/:id/variables?per_page=100`. Their
 * order is REST's, by id (the number the global id ends with). A hidden variable's value is null,
 * as REST answers it (app/models/ci/variable_value.rb), whatever GraphQL shows. The values are
 * secrets: held as REST's answer is, for the planner alone, never logged. A project whose
 * variables GraphQL does not show (null: the caller is not a Maintainer, as REST's 403), a node
 * with an error or a field missing, or a page that cannot be read, leaves the listing to REST.
 */

const FIELDS = "id key value variableType protected masked raw hidden environmentScope description";

const node = z.looseObject({
  id: z.string().regex(/\/\d+$/),
  key: z.string(),
  value: z.string().nullable(),
  variableType: z.enum(["ENV_VAR", "FILE"]),
  protected: z.boolean(),
  masked: z.boolean(),
  raw: z.boolean(),
  hidden: z.boolean(),
  environmentScope: z.string(),
  description: z.string().nullable(),
});

const idOf = (gid: string) => Number(/(\d+)$/.exec(gid)![1]);

export const variableGraphql = projectListing<z.infer<typeof node>, GitlabVariables>({
  connection: "ciVariables",
  nodes: FIELDS,
  node,
  path: (repo) => `${projectPath(repo)}/variables`,
  query: { per_page: 100 },
  listed: (nodes) =>
    [...nodes]
      .sort((a, b) => idOf(a.id) - idOf(b.id))
      .map((variable) => ({
        variable_type: variable.variableType === "FILE" ? "file" : "env_var",
        key: variable.key,
        value: variable.hidden ? null : variable.value,
        hidden: variable.hidden,
        protected: variable.protected,
        masked: variable.masked,
        raw: variable.raw,
        environment_scope: variable.environmentScope,
        description: variable.description,
      })),
});
