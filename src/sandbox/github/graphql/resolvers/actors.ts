import type { Account, App } from "../../world/records.js";
import type { Team } from "../../team/records.js";
import type { GraphqlContext } from "../context.js";
import { nodeId } from "../ids.js";

/** Users, organizations, teams and apps as GraphQL objects: what protections and rulesets name. */

export function accountObject(ctx: GraphqlContext, account: Account) {
  return {
    __typename: account.type,
    id: nodeId(account.type, account.id),
    databaseId: account.id,
    login: account.login,
    name: account.name,
    url: `${ctx.base}/${account.login}`,
    resourcePath: `/${account.login}`,
  };
}

export function teamObject(ctx: GraphqlContext, team: Team) {
  return {
    __typename: "Team",
    id: nodeId("Team", team.id),
    databaseId: team.id,
    slug: team.slug,
    name: team.name,
    description: team.description,
    combinedSlug: `${team.org.account.login}/${team.slug}`,
    organization: () => accountObject(ctx, team.org.account),
    url: `${ctx.base}/orgs/${team.org.account.login}/teams/${team.slug}`,
  };
}

export function appObject(ctx: GraphqlContext, app: App) {
  return {
    __typename: "App",
    id: nodeId("App", app.id),
    databaseId: app.id,
    slug: app.slug,
    name: app.name,
    description: app.description,
    url: `${ctx.base}/apps/${app.slug}`,
  };
}
