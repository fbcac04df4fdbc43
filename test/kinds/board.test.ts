import { conformance } from "./conformance.js";

conformance("board");
