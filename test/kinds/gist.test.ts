import { conformance } from "./conformance.js";

conformance("gist");
