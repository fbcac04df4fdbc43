import { HttpError, isoTime, type RequestContext } from "../http.js";
import {
  type Account,
  type Organization,
  type Repository,
  SECURITY_FEATURES,
} from "../world/records.js";
import { editRepository } from "./edit.js";
import { nameTaken, refusedName } from "./names.js";

type Body = Record<string, unknown>;

const CREATION_ONLY = new Set(["name", "visibility", "private", "auto_init", "custom_properties"]);

/**
 * GitHub's answer to a name the account already has: `Repository creation failed.` with the error
 * `{resource: "Repository", code: "custom", field: "name", message: "name already exists on this
 * account"}` (the whole body is quoted in dyad-sh/dyad#1601; hipstas/AudiAnnotate#92 for
 * `POST /user/repos`).
 */
function nameExists(documentation: string): HttpError {
  return new HttpError({
    status: 422,
    body: {
      message: "Repository creation failed.",
      errors: [
        {
          resource: "Repository",
          code: "custom",
          field: "name",
          message: "name already exists on this account",
        },
      ],
      documentation_url: documentation,
    },
  });
}

/**
 * A new repository with GitHub's defaults: public unless the body says otherwise (`private`
 * "Default: false"), empty (no branch) unless `auto_init` asks for an initial commit on `main`,
 * features on, security features off. Then the body's settings, as a PATCH would apply them.
 */
export function createRepository(
  ctx: RequestContext,
  owner: Account,
  org: Organization | null,
  body: Body,
  documentation: string,
): Repository {
  const name = String(body.name);
  const refused = refusedName(name);
  if (refused !== undefined) throw ctx.invalid([refused], "Repository");
  if (nameTaken(ctx.world, owner, name)) throw nameExists(documentation);
  const world = ctx.world;
  const stamp = isoTime(ctx.now());
  let id = 1;
  for (const known of world.repositoriesById.keys()) id = Math.max(id, known + 1);
  const repo: Repository = {
    id,
    name,
    owner,
    org,
    private: body.visibility === undefined ? body.private === true : body.visibility === "private",
    description: null,
    homepage: null,
    default_branch: "main",
    has_issues: true,
    has_projects: true,
    has_wiki: true,
    has_discussions: body.has_discussions === true,
    is_template: false,
    allow_forking: true,
    allow_squash_merge: true,
    allow_rebase_merge: true,
    allow_merge_commit: true,
    allow_auto_merge: false,
    delete_branch_on_merge: false,
    allow_update_branch: false,
    web_commit_signoff_required: false,
    squash_merge_commit_title: "COMMIT_OR_PR_TITLE",
    squash_merge_commit_message: "COMMIT_MESSAGES",
    merge_commit_title: "MERGE_MESSAGE",
    merge_commit_message: "PR_TITLE",
    archived: false,
    topics: [],
    security: Object.fromEntries(
      SECURITY_FEATURES.map((feature) => [feature, "disabled"]),
    ) as Repository["security"],
    bypassReviewers: [],
    vulnerability_alerts: false,
    automated_security_fixes: false,
    private_vulnerability_reporting: false,
    created_at: stamp,
    updated_at: stamp,
    branches: new Map(),
  };
  // What the areas give a new repository (GitHub's default labels …); its Actions permissions and
  // variables start at their defaults, as a seeded repository's do.
  world.created(repo, body);
  if (body.auto_init === true) {
    repo.branches.set("main", { name: "main", sha: `${id.toString(16).padStart(40, "0")}` });
  }
  // Set at creation above; the rest as a PATCH of the new repository would.
  const settings = Object.fromEntries(
    Object.entries(body).filter(([key]) => !CREATION_ONLY.has(key)),
  );
  editRepository(ctx, repo, settings);
  world.addRepository(repo);
  return repo;
}
