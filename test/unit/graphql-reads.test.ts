/**
 * The kinds' GraphQL reads answer only what they can answer exactly as REST would: everything
 * GraphQL cannot show — a wildcard protection rule, a repository the token does not administer, an
 * actor or a value GitHub's published schema has no room for, a field that failed — is left to
 * REST (no answer for that read), never guessed.
 */
import { describe, expect, it } from "vitest";
import { protectionGraphql } from "../../src/resources/branch-protection/graphql.js";
import {
  failedAt,
  getKey,
  listKey,
  type Pages,
  type RestAnswers,
} from "../../src/resources/graphql-read.js";
import { rulesetGraphql } from "../../src/resources/ruleset/graphql.js";

const repo = { owner: "acme", name: "api" };
const noPages: Pages = { rest: () => Promise.resolve(undefined) };
const page = (nodes: unknown[]) => ({ pageInfo: { hasNextPage: false, endCursor: null }, nodes });

const answered = (answers: RestAnswers) => [...answers.byRequest.keys()];
const protectionKey = (branch: string) =>
  getKey(`/repos/acme/api/branches/${branch}/protection`, undefined);

function rule(overrides: Record<string, unknown> = {}) {
  return {
    id: "rule-1",
    pattern: "main",
    isAdminEnforced: false,
    requiresCommitSignatures: false,
    requiresApprovingReviews: false,
    requiredApprovingReviewCount: null,
    dismissesStaleReviews: false,
    requiresCodeOwnerReviews: false,
    requireLastPushApproval: false,
    restrictsReviewDismissals: false,
    reviewDismissalAllowances: page([]),
    bypassPullRequestAllowances: page([]),
    restrictsPushes: false,
    pushAllowances: page([]),
    requiresStatusChecks: false,
    requiresStrictStatusChecks: false,
    requiredStatusChecks: [],
    requiresLinearHistory: false,
    allowsForcePushes: false,
    allowsDeletions: false,
    blocksCreations: false,
    requiresConversationResolution: false,
    lockBranch: false,
    lockAllowsFetchAndMerge: false,
    ...overrides,
  };
}

function protections(data: Record<string, unknown>, errors: Array<Array<string | number>> = []) {
  return protectionGraphql.answer({
    repo,
    value: { main: {}, release: {} },
    data: { viewerCanAdminister: true, ...data },
    failed: failedAt(errors),
    pages: noPages,
  });
}

describe("branch protections over GraphQL", () => {
  it("answers a branch's own rule, an unprotected branch and a missing one as REST does", async () => {
    const answers = await protections({
      b0: { name: "main", branchProtectionRule: rule() },
      b1: null,
    });
    expect(answers.byRequest.get(protectionKey("main"))).toMatchObject({
      kind: "found",
      body: { enforce_admins: { enabled: false } },
    });
    expect(answers.byRequest.get(protectionKey("release"))).toEqual({
      kind: "absent",
      detail: "Branch not found",
    });
    const unprotected = await protections({
      b0: { name: "main", branchProtectionRule: null },
      b1: null,
    });
    expect(unprotected.byRequest.get(protectionKey("main"))).toEqual({
      kind: "absent",
      detail: "Branch not protected",
    });
  });

  it("leaves to REST a branch a wildcard rule protects", async () => {
    const answers = await protections({
      b0: { name: "main", branchProtectionRule: rule() },
      b1: { name: "release", branchProtectionRule: rule({ pattern: "rel*" }) },
    });
    expect(answered(answers)).toEqual([protectionKey("main")]);
  });

  it("leaves to REST a repository the token does not administer", async () => {
    const answers = await protections({
      viewerCanAdminister: false,
      b0: { name: "main", branchProtectionRule: null },
    });
    expect(answered(answers)).toEqual([]);
  });

  it("leaves to REST an actor that is not a user, team or app, and a branch with an error", async () => {
    const bot = { actor: { __typename: "Bot", login: "dependabot" } };
    const answers = await protections(
      {
        b0: {
          name: "main",
          branchProtectionRule: rule({ restrictsPushes: true, pushAllowances: page([bot]) }),
        },
        b1: { name: "release", branchProtectionRule: null },
      },
      [["b1", "branchProtectionRule"]],
    );
    expect(answered(answers)).toEqual([]);
  });
});

function ruleset(overrides: Record<string, unknown> = {}) {
  return {
    id: "ruleset-7",
    databaseId: 7,
    name: "one",
    target: "BRANCH",
    enforcement: "ACTIVE",
    conditions: { refName: { include: ["~DEFAULT_BRANCH"], exclude: [] } },
    bypassActors: page([
      {
        actor: null,
        bypassMode: "ALWAYS",
        deployKey: false,
        organizationAdmin: true,
        enterpriseOwner: false,
        repositoryRoleDatabaseId: null,
      },
    ]),
    rules: page([{ type: "DELETION", parameters: null }]),
    ...overrides,
  };
}

async function rulesets(nodes: unknown[], errors: Array<Array<string | number>> = []) {
  const answers = await rulesetGraphql.answer({
    repo,
    value: { one: {} },
    data: { rulesets: page(nodes) },
    failed: failedAt(errors),
    pages: noPages,
  });
  return answers;
}

const LIST = listKey("/repos/acme/api/rulesets", { includes_parents: "false" });

describe("rulesets over GraphQL", () => {
  it("answers the listing and each ruleset in REST's words", async () => {
    const answers = await rulesets([ruleset()]);
    expect(answers.byRequest.get(LIST)).toEqual({
      kind: "listed",
      items: [{ id: 7, name: "one", source_type: "Repository" }],
    });
    expect(answers.byRequest.get(getKey("/repos/acme/api/rulesets/7", undefined))).toEqual({
      kind: "found",
      body: {
        id: 7,
        name: "one",
        target: "branch",
        source_type: "Repository",
        enforcement: "active",
        bypass_actors: [{ actor_id: null, actor_type: "OrganizationAdmin", bypass_mode: "always" }],
        conditions: { ref_name: { include: ["~DEFAULT_BRANCH"], exclude: [] } },
        rules: [{ type: "deletion" }],
      },
    });
  });

  it.each([
    ["a pull_request rule", { rules: page([{ type: "PULL_REQUEST", parameters: {} }]) }],
    [
      "a rule type forgeplan does not manage",
      { rules: page([{ type: "MAX_REF_UPDATES", parameters: null }]) },
    ],
    ["bypass actors hidden from the token", { bypassActors: null }],
    [
      "an enterprise owner among the actors",
      {
        bypassActors: page([
          {
            actor: null,
            bypassMode: "ALWAYS",
            deployKey: false,
            organizationAdmin: false,
            enterpriseOwner: true,
            repositoryRoleDatabaseId: null,
          },
        ]),
      },
    ],
    [
      "a bypass mode GraphQL cannot name (exempt reads null)",
      {
        bypassActors: page([
          {
            actor: { __typename: "Team", databaseId: 2 },
            bypassMode: null,
            deployKey: false,
            organizationAdmin: false,
            enterpriseOwner: false,
            repositoryRoleDatabaseId: null,
          },
        ]),
      },
    ],
  ])("leaves to REST a ruleset with %s, and still lists it", async (_, overrides) => {
    const answers = await rulesets([ruleset(overrides)]);
    expect(answered(answers)).toEqual([LIST]);
  });

  it("leaves to REST a ruleset with an error in it, and everything when a listed one lacks its id", async () => {
    expect(answered(await rulesets([ruleset()], [["rulesets", "nodes", 0, "rules"]]))).toEqual([
      LIST,
    ]);
    expect(answered(await rulesets([{ ...ruleset(), databaseId: null }]))).toEqual([]);
  });
});
