import type { Account, GithubWorld } from "./records.js";
import { simpleUser } from "./shapes.js";

type Json = Record<string, unknown>;

/** The world has no history: every account was created at this moment, and not changed since. */
const CREATED_AT = "2020-01-01T00:00:00Z";

/** GitHub's Free plan, as `GET /user` shows a private profile's plan. */
const FREE_PLAN = { name: "free", space: 976562499, collaborators: 0, private_repos: 10000 };

/**
 * Whether `GET /user` shows the account its private profile: GitHub does unless the token is a
 * personal access token (classic) whose scopes leave out `user` ("OAuth app tokens and personal
 * access tokens (classic) need the `user` scope in order for the response to include private
 * profile information", the operation's description; `read:user` is that scope's reading part).
 */
export function seesPrivateProfile(account: Account): boolean {
  const scopes = account.tokenScopes;
  return scopes === undefined || scopes.includes("user") || scopes.includes("read:user");
}

/**
 * `GET /user`: GitHub's `public-user` profile of the account, or with `private` its
 * `private-user` one (the counts of private repositories and gists, the plan, two-factor). These
 * are GitHub's shapes, not the spec's Simple User: the spec defines no such operation, so the
 * avatar hash is GitHub's `gravatar_id`, not the spec's `avatar_ref_id`. Counts come from the
 * world and its areas (`GithubArea.profileCounts`: the gists area's); what it does not keep
 * (followers, a bio, a company) is empty.
 */
export function userProfile(
  base: string,
  world: GithubWorld,
  account: Account,
  visible: "public" | "private",
): Json {
  const { avatar_ref_id: _specOnly, ...simple } = simpleUser(base, account);
  const repositories = world.repositoriesByOwner.get(account.login.toLowerCase()) ?? [];
  const counts = world.profileCounts(account);
  const publicProfile = {
    ...simple,
    gravatar_id: "",
    user_view_type: visible,
    name: account.name,
    company: null,
    blog: "",
    location: null,
    email: account.email,
    hireable: null,
    bio: null,
    twitter_username: null,
    public_repos: repositories.filter((repo) => !repo.private).length,
    public_gists: counts.public_gists ?? 0,
    followers: 0,
    following: 0,
    created_at: CREATED_AT,
    updated_at: CREATED_AT,
  };
  if (visible === "public") return publicProfile;
  const privateRepositories = repositories.filter((repo) => repo.private).length;
  return {
    ...publicProfile,
    notification_email: account.email,
    private_gists: counts.private_gists ?? 0,
    total_private_repos: privateRepositories,
    owned_private_repos: privateRepositories,
    disk_usage: 0,
    collaborators: 0,
    two_factor_authentication: true,
    plan: FREE_PLAN,
  };
}
