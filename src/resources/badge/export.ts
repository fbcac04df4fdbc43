import { mustFind, type ResourceReader } from "../context.js";
import { BADGE_SHAPE } from "./canonical.js";
import type { BadgeSettings, Badges } from "./settings.js";

/**
 * A project's or a group's own badges as they are live, additive. A badge without a name cannot be
 * written by name, so it is left out (an additive list leaves it as it is).
 */
export async function exportBadges(
  reader: ResourceReader,
  path: string,
  own: "project" | "group",
): Promise<Badges | undefined> {
  const live = mustFind(await reader.list(path, undefined, BADGE_SHAPE), path).filter(
    (badge) => badge.kind === own && badge.name !== null,
  );
  if (live.length === 0) return undefined;
  const items = Object.fromEntries(
    live.map(({ name, link_url, image_url }): [string, BadgeSettings] => [
      name!,
      { link_url, image_url },
    ]),
  );
  return { mode: "additive", items };
}
