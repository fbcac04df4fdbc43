import {
  COLLECTION_STYLE,
  type Event,
  EVENT_ID,
  SCALAR_STYLE,
  type ScalarEvent,
  getScalarValue,
  parseEvents,
  YAMLException,
} from "js-yaml";
import {
  type TreeMap,
  type TreeNode,
  type TreeScalar,
  type TreeSeq,
  UnresolvedScalar,
  resolvePlain,
} from "./yaml-tree.js";

/**
 * The fast way to read a configuration: js-yaml's event stream (a flat list with source offsets),
 * turned into the loader's tree. js-yaml parses a file of 2 MB in about a fifth of the time the
 * YAML library takes (bench/validate-speed.js), and most files are plain YAML that both read the
 * same. The YAML library stays the reference: wherever the two could differ, or where only it
 * words the problem the way the loader reports it, this declines (returns undefined) and the caller
 * parses with the YAML library instead. It declines on:
 * - anything js-yaml refuses (a syntax error, nesting past `maxDepth`): the YAML library's message
 *   and position are the ones shown;
 * - more or fewer than one document, directives, and explicit tags (the library resolves tags and
 *   refuses unknown ones its own way);
 * - a block scalar with an explicit indentation indicator (`|2`), which the two read differently
 *   at the top level;
 * - a plain scalar that spans lines (js-yaml lets a comment line sit inside one; the library ends
 *   the scalar there and refuses what follows);
 * - a carriage return not followed by a line feed (a line break to js-yaml, not to the library);
 * - a tab anywhere: the two disagree on where a tab may separate (js-yaml reads `\t""` as a
 *   string, the library refuses a tab as indentation);
 * - what the library only warns about, which the loader treats as an error: a multi-line flow
 *   collection closed at its parent's indentation (a line starting with `]` or `}`), an anchor or
 *   alias whose name ends in `:`;
 * - a mapping or a list as a key; a key written after `?` in a flow mapping, with an anchor, or
 *   followed by a comment or by a `:` on a later line (a `?` key without a value is read: js-yaml
 *   gives it an empty value, the library none, and so does this);
 * - an empty value it cannot place as the library does (anywhere but after a block mapping's key,
 *   a block list's `-` or the `?` of a block mapping's first key, or one with an anchor), and a
 *   plain scalar the library's own tags refuse to resolve.
 * test/unit/yaml-events.test.ts holds the two readings equal on random documents.
 */
export function treeFromEvents(
  text: string,
  maxDepth: number,
  /** Told where js-yaml stopped, when it stopped for nesting past `maxDepth`. */
  onTooDeep?: (offset: number) => void,
): TreeNode | undefined {
  if (/\t|\r(?!\n)|^[ ]*[\]}]/m.test(text)) return undefined;
  let events: Event[];
  try {
    events = parseEvents(text, { maxDepth });
  } catch (error) {
    // js-yaml counts every node, scalars too, so it stops at or before the YAML library's limit.
    if (error instanceof YAMLException && error.reason.startsWith("nesting exceeded maxDepth")) {
      if (error.mark !== undefined) onTooDeep?.(error.mark.position);
    }
    return undefined;
  }
  try {
    return new EventReader(text).read(events);
  } catch (error) {
    if (error instanceof UnresolvedScalar) return undefined;
    throw error;
  }
}

/**
 * `list` with `item` added; the first item makes a list of one. A list grown from empty by a push
 * holds room for 17 (V8), and most mappings of a large file are entries of one or two pairs: 150
 * bytes each of 250,000 entries' lists were room never used.
 */
function appended<T>(list: T[], item: T): T[] {
  if (list.length === 0) return [item];
  list.push(item);
  return list;
}

interface Frame {
  node: TreeSeq | TreeMap;
  flow: boolean;
  /** A mapping's key whose value comes next. */
  key?: TreeNode;
  /** Whether that key is written after `?`: then it may have no value at all (not an empty one). */
  explicit?: boolean;
}

class EventReader {
  #root: TreeNode | undefined;
  readonly #stack: Frame[] = [];
  /** Where the last scalar or alias ended: what an empty value or a block scalar's header follows. */
  #lastEnd = 0;
  /** The last fast plain scalar read as a value ([0]) and as a key ([1]). */
  readonly #lastPlain: Array<TreeScalar | undefined> = [undefined, undefined];

  constructor(private readonly text: string) {}

  read(events: readonly Event[]): TreeNode | undefined {
    let documents = 0;
    // Indexed: a 2 MB file is half a million events, and the loop runs before it is optimized.
    for (let index = 0; index < events.length; index++) {
      const event = events[index]!;
      switch (event.type) {
        case EVENT_ID.DOCUMENT:
          if (++documents > 1 || event.directives.length > 0) return undefined;
          break;
        case EVENT_ID.MAPPING:
        case EVENT_ID.SEQUENCE: {
          if (event.tagStart >= 0) return undefined;
          const anchor = this.#anchor(event.anchorStart, event.anchorEnd);
          if (anchor === null) return undefined;
          const node: TreeSeq | TreeMap =
            event.type === EVENT_ID.MAPPING
              ? { kind: "map", offset: event.start, anchor, tag: undefined, pairs: [] }
              : { kind: "seq", offset: event.start, anchor, tag: undefined, items: [] };
          const start = event.anchorStart >= 0 ? event.anchorStart - 1 : event.start;
          if (!this.#add(node, start)) return undefined;
          this.#stack.push({ node, flow: event.style === COLLECTION_STYLE.FLOW });
          break;
        }
        case EVENT_ID.SCALAR: {
          const absent = this.#absentValue(event);
          if (absent === null) return undefined;
          if (absent) break;
          const node = this.#scalar(event);
          if (node === undefined) return undefined;
          const start = event.anchorStart >= 0 ? event.anchorStart - 1 : node.offset;
          if (!this.#add(node, start)) return undefined;
          break;
        }
        case EVENT_ID.ALIAS: {
          const name = this.text.slice(event.anchorStart, event.anchorEnd);
          if (name.endsWith(":")) return undefined;
          this.#lastEnd = event.anchorEnd;
          const offset = event.anchorStart - 1;
          if (!this.#add({ kind: "alias", offset, name }, offset)) return undefined;
          break;
        }
        case EVENT_ID.POP: {
          const frame = this.#stack.pop();
          // A mapping left with a key and no value is not a stream js-yaml makes; read it the other way.
          if (frame?.key !== undefined) return undefined;
          break;
        }
      }
    }
    return this.#stack.length === 0 ? this.#root : undefined;
  }

  /**
   * Puts `node` where it belongs; false where the stream is not one this reads. `start` is where
   * its text begins, its anchor included.
   */
  #add(node: TreeNode, start: number): boolean {
    const frame = this.#stack[this.#stack.length - 1];
    if (frame === undefined) {
      if (this.#root !== undefined) return false;
      this.#root = node;
    } else if (frame.node.kind === "seq") {
      frame.node.items = appended(frame.node.items, node);
    } else if (frame.key === undefined) {
      if (node.kind === "map" || node.kind === "seq") return false;
      const explicit = this.#explicitKey(start);
      // An explicit key in a flow mapping, or one with an anchor or that is an alias, is left to
      // the library: its placement was not compared.
      if (explicit && (frame.flow || node.kind === "alias" || node.anchor !== undefined)) {
        return false;
      }
      frame.key = node;
      frame.explicit = explicit;
      // The library starts a block mapping at its first key's text, after that key's anchor.
      const map = frame.node;
      if (!frame.flow && map.pairs.length === 0 && node.kind !== "alias" && node.anchor) {
        if (this.text[map.offset] !== "?") map.offset = node.offset;
      }
    } else {
      frame.node.pairs = appended(frame.node.pairs, { key: frame.key, value: node });
      frame.key = undefined;
    }
    return true;
  }

  /**
   * Whether `event` stands for the value an explicit key (`? a`) does not have: js-yaml gives it an
   * empty scalar, the library no node at all. Then the pair is added with a null value and this is
   * true; false for any other scalar; null where the two could read it differently: a `:` follows
   * after all (on a later line, where the library places its empty value otherwise), a comment
   * does, or the scalar has an anchor or a tag.
   */
  #absentValue(event: ScalarEvent): boolean | null {
    const frame = this.#stack[this.#stack.length - 1];
    if (frame?.explicit !== true || frame.key === undefined || event.valueStart >= 0) return false;
    if (event.anchorStart >= 0 || event.tagStart >= 0) return null;
    let at = this.#lastEnd;
    while (this.text[at] === " " || this.text[at] === "\n" || this.text[at] === "\r") at++;
    const next = this.text[at];
    if (next === ":" || next === "#") return null;
    const map = frame.node as TreeMap;
    map.pairs = appended(map.pairs, { key: frame.key, value: null });
    frame.key = undefined;
    frame.explicit = false;
    return true;
  }

  /**
   * Whether a key is written after `?`, where the two place the key's mapping and its missing value
   * differently.
   */
  #explicitKey(start: number): boolean {
    let at = start;
    do at--;
    while (at >= 0 && (this.text[at] === " " || this.text[at] === "\n" || this.text[at] === "\r"));
    return this.text[at] === "?";
  }

  /** An anchor's name, undefined for none, null for one the YAML library would warn about. */
  #anchor(start: number, end: number): string | undefined | null {
    if (start < 0) return undefined;
    const name = this.text.slice(start, end);
    return name.endsWith(":") ? null : name;
  }

  #scalar(event: ScalarEvent): TreeNode | undefined {
    if (event.tagStart >= 0) return undefined;
    const anchor = this.#anchor(event.anchorStart, event.anchorEnd);
    if (anchor === null) return undefined;
    const frame = this.#stack[this.#stack.length - 1];
    const atKey = frame?.node.kind === "map" && frame.key === undefined;
    let offset: number;
    let end: number;
    switch (event.style) {
      case SCALAR_STYLE.PLAIN:
        if (event.valueStart < 0) {
          if (anchor !== undefined || frame === undefined || frame.flow) return undefined;
          if (atKey) {
            const key = this.#emptyKey(frame);
            if (key === undefined) return undefined;
            // What the key's value follows is its indicator, not where the key is placed.
            offset = key.offset;
            end = key.indicator;
            break;
          }
          const empty = this.#emptyValueOffset(frame);
          if (empty === undefined) return undefined;
          offset = end = empty;
        } else {
          // js-yaml marks a plain scalar that spans lines as not `fast`.
          if (!event.fast) return undefined;
          offset = event.valueStart;
          end = event.valueEnd;
        }
        break;
      case SCALAR_STYLE.SINGLE_QUOTED:
      case SCALAR_STYLE.DOUBLE_QUOTED:
        offset = event.valueStart - 1;
        end = event.valueEnd + 1;
        break;
      default: {
        const header = this.#blockHeader(event, anchor === undefined ? -1 : event.anchorEnd);
        if (header === undefined) return undefined;
        offset = header;
        end = event.valueEnd;
      }
    }
    this.#lastEnd = end;
    const plain = event.style === SCALAR_STYLE.PLAIN;
    const repeated = plain && event.fast ? this.#repeated(event, atKey) : undefined;
    if (repeated !== undefined) return { ...repeated, offset, anchor };
    const source = event.valueStart < 0 ? "" : getScalarValue(this.text, event);
    const node: TreeScalar = {
      kind: "scalar",
      offset,
      anchor,
      tag: undefined,
      value: plain ? resolvePlain(source, atKey) : source,
      text: source,
      plain,
    };
    if (plain && event.fast) this.#lastPlain[atKey ? 1 : 0] = node;
    return node;
  }

  /**
   * The last plain scalar read in the same place (a key, or a value) when this one's text is the
   * same: a file of 100,000 entries writes `name:` 100,000 times, and its text and resolved value
   * are then one string, not one each, compared where it stands in the file.
   */
  #repeated(event: ScalarEvent, atKey: boolean): TreeScalar | undefined {
    const last = this.#lastPlain[atKey ? 1 : 0];
    if (last === undefined || last.text.length !== event.valueEnd - event.valueStart) {
      return undefined;
    }
    return this.text.startsWith(last.text, event.valueStart) ? last : undefined;
  }

  /**
   * Where the YAML library places an empty value: after its key's `:` and the spaces that follow
   * it on the same line (yaml's emptyScalarPosition), after a block mapping's key, which ended at
   * #lastEnd; in a block list, after the item's `-`; undefined anywhere else.
   */
  #emptyValueOffset(frame: Frame): number | undefined {
    if (frame.node.kind === "seq") return this.#emptyItemOffset(frame.node);
    let at = this.#skipSpaces(this.#lastEnd);
    if (this.text[at] !== ":") return undefined;
    at = this.#skipSpaces(at + 1);
    return at;
  }

  /**
   * Where the YAML library places an empty key of a block mapping, and where what its value
   * follows is: its `:`, or for a key after `?`, the key itself.
   * The first key: after a `?` and its spaces (`? ` alone), or at the `:` the mapping starts with
   * (`: v`). A later key (`: v` only, on the line right after the value before it): where the
   * library's range of that value ends — an empty value where it is, any other scalar past its
   * spaces, its comment and its line break. Undefined for any other empty key.
   */
  #emptyKey(frame: Frame): { offset: number; indicator: number } | undefined {
    const map = frame.node;
    if (map.kind !== "map") return undefined;
    if (map.pairs.length === 0) {
      const first = this.text[map.offset];
      if (first === "?") {
        // What follows is looked at from the key on: a `:` there gives it a value after all.
        const offset = this.#skipSpaces(map.offset + 1);
        return { offset, indicator: offset };
      }
      return first === ":" ? { offset: map.offset, indicator: map.offset } : undefined;
    }
    const before = map.pairs[map.pairs.length - 1]!.value;
    if (before === null || before.kind !== "scalar" || /[|>]/.test(this.text[before.offset]!)) {
      return undefined;
    }
    let offset = before.offset;
    if (!before.plain || before.text !== "") {
      offset = this.#skipSpaces(this.#lastEnd);
      if (this.text[offset] === "#") offset = this.text.indexOf("\n", offset);
      if (this.text[offset] !== "\n") return undefined;
      offset++;
    } else if (this.text[offset] !== "\n") {
      return undefined;
    }
    // Only a `:` on the line right after: past blank or comment lines the library's range of an
    // empty value ends at one of them, of another value sometimes past them.
    const indicator = this.#skipSpaces(before.text === "" && before.plain ? offset + 1 : offset);
    return this.text[indicator] === ":" ? { offset, indicator } : undefined;
  }

  /**
   * Where the YAML library places an empty item of a block list: after its `-` and the spaces
   * that follow it (`- ` alone on a line, or before a comment). The first item's `-` is where the
   * list starts; a later one's is the first thing on a line after the item before it, at the
   * list's column. Undefined where no such `-` is found.
   */
  #emptyItemOffset(list: TreeSeq): number | undefined {
    let dash: number | undefined;
    if (list.items.length === 0) dash = list.offset;
    else {
      const column = list.offset - (this.text.lastIndexOf("\n", list.offset - 1) + 1);
      // The item before ends on its own line, or where a line starts (a block scalar's last).
      const at = this.#lastEnd;
      const from = at > 0 && this.text[at - 1] === "\n" ? at - 1 : this.text.indexOf("\n", at);
      for (let line = from; line >= 0;) {
        const first = this.#skipSpaces(line + 1);
        const char = this.text[first];
        if (char !== "\n" && char !== "#") {
          if (first - (line + 1) === column && char === "-") dash = first;
          break;
        }
        line = this.text.indexOf("\n", line + 1);
      }
    }
    if (dash === undefined || this.text[dash] !== "-") return undefined;
    return this.#skipSpaces(dash + 1);
  }

  /**
   * A block scalar's `|` or `>`: js-yaml's event starts at the content, the line after the header.
   * The header is the first indicator on that line after what precedes the scalar there (its key,
   * an earlier scalar, its anchor).
   */
  #blockHeader(event: ScalarEvent, anchorEnd: number): number | undefined {
    const lineEnd = event.valueStart - 1;
    if (event.valueStart < 1 || this.text[lineEnd] !== "\n") return undefined;
    const lineStart = this.text.lastIndexOf("\n", lineEnd - 1) + 1;
    let at = Math.max(lineStart, anchorEnd, this.#lastEnd);
    for (; at < lineEnd; at++) {
      const char = this.text[at];
      if (char !== "|" && char !== ">") continue;
      // An explicit indentation indicator (`|2`) is read differently at the top level by the two.
      return /^[|>][+-]?[0-9]/.test(this.text.slice(at, at + 3)) ? undefined : at;
    }
    return undefined;
  }

  #skipSpaces(from: number): number {
    let at = from;
    while (this.text[at] === " " || this.text[at] === "\t") at++;
    return at;
  }
}
