/**
 * The names a ruleset is written with (team slugs, app slugs, roles) and the ids the service keeps,
 * in both directions. An owner's teams and app installations are read once per run and shared by
 * every repository of that owner the run plans; an app is looked up by slug once.
 */
import * as z from "zod";
import type { ChangeError } from "../../core/plan.js";
import {
  changeError,
  type ReadResult,
  ReadFailed,
  readFailure,
  type ResourceReader,
} from "../context.js";
import { type OrganizationTeam, organizationTeams, teamIdOf } from "../organization-teams.js";
import { actorName, type GhActor, type Namer } from "./canonical.js";
import {
  type BypassActorSettings,
  ORGANIZATION_ADMIN,
  ROLE_IDS,
  type RuleActorSettings,
} from "./actors.js";

const installationsShape = {
  name: "an installation list",
  schema: z.looseObject({
    total_count: z.number().int(),
    installations: z.array(
      z.looseObject({ id: z.number().int(), app_id: z.number().int(), app_slug: z.string() }),
    ),
  }),
};
const appShape = {
  name: "a GitHub app",
  schema: z.looseObject({ id: z.number().int(), slug: z.string().optional() }),
};

type Installation = z.infer<typeof installationsShape.schema>["installations"][number];

/** A name that could not be resolved: the ruleset cannot be planned. */
export class Unresolved extends Error {
  constructor(readonly error: ChangeError) {
    super(error.message);
  }
}

function fail(result: ReadResult<unknown>, message: string, path: string): never {
  if (result.kind === "error") throw new Unresolved(result.error);
  throw new Unresolved(changeError(message, "GET", path, 404));
}

export class Directory {
  #teams?: Promise<ReadResult<OrganizationTeam[]>>;
  #installations?: Promise<ReadResult<Installation[]>>;
  readonly #apps = new Map<string, Promise<ReadResult<z.infer<typeof appShape.schema>>>>();
  /** Names of ids learnt from any read, for showing live state: "Team:2" → "release-managers". */
  readonly #names = new Map<string, string>();

  constructor(
    readonly reader: ResourceReader,
    readonly owner: string,
  ) {}

  get #org() {
    return `/orgs/${encodeURIComponent(this.owner)}`;
  }

  #teamList(): Promise<ReadResult<OrganizationTeam[]>> {
    this.#teams ??= organizationTeams(this.reader, this.owner).then((result) => {
      if (result.kind === "found") {
        for (const team of result.data) this.#names.set(`Team:${team.id}`, team.slug);
      }
      return result;
    });
    return this.#teams;
  }

  /**
   * The organization's installations. The operation is not paginated by Link here: it answers an
   * object, so up to 100 are read and a longer list is refused rather than read in part.
   */
  #installationList(): Promise<ReadResult<Installation[]>> {
    const path = `${this.#org}/installations`;
    this.#installations ??= this.reader
      .getOrAbsent(path, installationsShape, { per_page: 100 })
      .then((result): ReadResult<Installation[]> => {
        if (result.kind !== "found") return result;
        const { installations, total_count } = result.data;
        if (total_count > installations.length) {
          return {
            kind: "error",
            error: changeError(
              `${this.owner} has ${total_count} app installations; forgeplan reads at most ${installations.length}`,
              "GET",
              path,
            ),
          };
        }
        for (const item of installations) {
          this.#names.set(`Integration:${item.app_id}`, item.app_slug);
          this.#names.set(`IntegrationInstallation:${item.id}`, item.app_slug);
        }
        return { kind: "found", data: installations };
      });
    return this.#installations;
  }

  /** A team of the organization by slug; throws Unresolved when there is none. */
  async teamId(slug: string): Promise<number> {
    // Read through the directory's list, which learns the names of teams from it.
    await this.#teamList();
    const found = await teamIdOf(this.reader, this.owner, slug);
    if ("error" in found) throw new Unresolved(found.error);
    return found.id;
  }

  async #appId(slug: string): Promise<number> {
    const path = `/apps/${encodeURIComponent(slug)}`;
    let lookup = this.#apps.get(slug.toLowerCase());
    if (!lookup) {
      lookup = this.reader.getOrAbsent(path, appShape);
      this.#apps.set(slug.toLowerCase(), lookup);
    }
    const result = await lookup;
    if (result.kind !== "found") fail(result, `app "${slug}" does not exist`, path);
    this.#names.set(`Integration:${result.data.id}`, result.data.slug ?? slug);
    return result.data.id;
  }

  async #installationId(slug: string): Promise<number> {
    const path = `${this.#org}/installations`;
    const installations = await this.#installationList();
    if (installations.kind !== "found") {
      fail(
        installations,
        `app installations belong to organizations, and ${this.owner} is not one`,
        path,
      );
    }
    const found = installations.data.find(
      (item) => item.app_slug.toLowerCase() === slug.toLowerCase(),
    );
    if (!found) {
      throw new Unresolved(
        changeError(`app "${slug}" is not installed on ${this.owner}`, "GET", path, 200),
      );
    }
    return found.id;
  }

  /** A bypass actor as the service takes it; throws Unresolved for a name that does not exist. */
  async bypassActor(actor: BypassActorSettings): Promise<GhActor> {
    const bypass_mode = actor.bypass_mode ?? "always";
    if (actor.role === ORGANIZATION_ADMIN) {
      return { actor_id: null, actor_type: "OrganizationAdmin", bypass_mode };
    }
    if (actor.role !== undefined) {
      return { actor_id: ROLE_IDS[actor.role] ?? null, actor_type: "RepositoryRole", bypass_mode };
    }
    if (actor.team !== undefined) {
      return { actor_id: await this.teamId(actor.team), actor_type: "Team", bypass_mode };
    }
    if (actor.app !== undefined) {
      return { actor_id: await this.#appId(actor.app), actor_type: "Integration", bypass_mode };
    }
    return { actor_id: null, actor_type: "DeployKey", bypass_mode };
  }

  /** An actor inside a rule (who may dismiss reviews): apps are named by their installation. */
  async ruleActor(actor: RuleActorSettings): Promise<{ id: number; type: string }> {
    if (actor.role !== undefined) return { id: ROLE_IDS[actor.role] ?? 0, type: "RepositoryRole" };
    if (actor.team !== undefined) return { id: await this.teamId(actor.team), type: "Team" };
    return { id: await this.#installationId(actor.app ?? ""), type: "IntegrationInstallation" };
  }

  /**
   * Learns the names of ids a live ruleset holds that resolving the desired one did not name. A list
   * that cannot be read leaves the ids unnamed (they are shown as ids); `strict` makes it a failure.
   */
  async learn(refs: ReadonlyArray<{ type: string; id: number }>, strict: boolean): Promise<void> {
    const unknown = refs.filter(
      ({ type, id }) => this.#needsName(type) && !this.#names.has(`${type}:${id}`),
    );
    if (unknown.some(({ type }) => type === "Team"))
      await this.#learnFrom(this.#teamList(), strict);
    if (unknown.some(({ type }) => type === "Integration" || type === "IntegrationInstallation")) {
      await this.#learnFrom(this.#installationList(), strict);
    }
  }

  #needsName(type: string): boolean {
    return type === "Team" || type === "Integration" || type === "IntegrationInstallation";
  }

  async #learnFrom(read: Promise<ReadResult<unknown>>, strict: boolean): Promise<void> {
    const result = await read;
    if (strict && result.kind === "error") throw readFailure(result.error);
  }

  readonly namer: Namer = (type, id) => this.#names.get(`${type}:${id}`);

  /** The name of an id for export, which must write every actor by name. */
  mustName(type: string, id: number | null): string {
    const name = this.namer(type, id);
    if (name === undefined) {
      throw new ReadFailed(
        `${actorName(this.namer, type, id)} of ${this.owner} has no name forgeplan can write`,
      );
    }
    return name;
  }
}

const directories = new WeakMap<ResourceReader, Map<string, Directory>>();

/**
 * The directory of an owner for this reader. A reader lives for one run (one target), so what it
 * caches is as fresh as the plan.
 */
export function directoryOf(reader: ResourceReader, owner: string): Directory {
  let byOwner = directories.get(reader);
  if (!byOwner) {
    byOwner = new Map();
    directories.set(reader, byOwner);
  }
  const key = owner.toLowerCase();
  let found = byOwner.get(key);
  if (!found) {
    found = new Directory(reader, owner);
    byOwner.set(key, found);
  }
  return found;
}
