import type { ResourceReader } from "./context.js";

/**
 * A read made once per run for each organization, whatever number of repositories ask for it: facts
 * forgeplan never changes (an organization's owners, its roles). A reader lives for one run, so the
 * answer is as fresh as the plan; a read that failed fails every change that needs it alike.
 */
export function oncePerOrganization<T>(
  read: (reader: ResourceReader, org: string) => Promise<T>,
): (reader: ResourceReader, org: string) => Promise<T> {
  const byReader = new WeakMap<ResourceReader, Map<string, Promise<T>>>();
  return (reader, org) => {
    let byOrg = byReader.get(reader);
    if (byOrg === undefined) {
      byOrg = new Map();
      byReader.set(reader, byOrg);
    }
    const key = org.toLowerCase();
    let found = byOrg.get(key);
    if (found === undefined) {
      found = read(reader, org);
      byOrg.set(key, found);
    }
    return found;
  };
}
