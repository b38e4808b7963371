/**
 * Answers' bodies, each text parsed once and its tree shared by every answer of the same text (nothing that reads a
 * tree changes it). Found first by the request's method and path, then the text compared: a map keyed by text hashes
 * every answer's whole body, which cost more than the rest of judging a list, where the path is a few dozen
 * characters, hashed already to place the request, and one path is most often answered with the text it was answered
 * with last. So the latest few bodies of each method and path are kept, bounded by the characters they hold: past
 * REMEMBERED_CHARACTERS that memory starts again.
 * A text the path's latest do not hold is then looked up by the text itself, among the latest REMEMBERED_CHARACTERS of
 * distinct texts (the oldest forgotten first): a page that changes as pets are added comes back after many others (the
 * bench capture's lists by status: some 1,700 texts per path, each answered about 24 times, a third of them after
 * more than PER_PATH others), and parsing it again cost more than hashing it. A body longer than LONGEST_REMEMBERED
 * is parsed each time.
 */
import { JsonBody } from '../../lib/json-body.ts';
import { TextMemory } from '../../lib/text-memory.ts';

const REMEMBERED_CHARACTERS = 1_000_000;
const LONGEST_REMEMBERED = 16_384;
/** Bodies kept per method and path: a page that changes as pets are added, a pet fetched before and after a change. */
const PER_PATH = 4;

export class RememberedBodies {
  /** By method, then path: the latest bodies first. */
  private readonly byMethod = new Map<string, Map<string, JsonBody[]>>();
  private characters = 0;
  private readonly byText = new TextMemory<JsonBody>(REMEMBERED_CHARACTERS, LONGEST_REMEMBERED);

  of(method: string, path: string, text: string): JsonBody {
    let byPath = this.byMethod.get(method);
    let bodies = byPath?.get(path);
    if (bodies) for (const body of bodies) if (body.text === text) return body;
    if (text.length > LONGEST_REMEMBERED) return new JsonBody(text);
    let body = this.byText.get(text);
    if (!body) {
      body = new JsonBody(text);
      this.byText.set(text, body);
    }
    if (this.characters + text.length > REMEMBERED_CHARACTERS) {
      this.byMethod.clear();
      this.characters = 0;
      byPath = bodies = undefined;
    }
    if (!byPath) this.byMethod.set(method, (byPath = new Map()));
    if (!bodies) byPath.set(path, (bodies = []));
    bodies.unshift(body);
    this.characters += text.length;
    if (bodies.length > PER_PATH) this.characters -= (bodies.pop() as JsonBody).text.length;
    return body;
  }
}
