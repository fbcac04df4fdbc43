/**
 * State an area keeps beside a record of another area (a repository's labels, an organization's
 * teams) or beside a family's world (the next id of its records), without a field on that record:
 * `attached(make)` is a look-up made on first use for each owner, one WeakMap get afterwards, so
 * the state lives and goes with its owner and a new area adds no field to a shared type.
 */
export function attached<Owner extends object, State>(
  make: (owner: Owner) => State,
): (owner: Owner) => State {
  const states = new WeakMap<Owner, State>();
  return (owner) => {
    let state = states.get(owner);
    if (state === undefined) {
      state = make(owner);
      states.set(owner, state);
    }
    return state;
  };
}
