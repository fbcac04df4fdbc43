import { conformance } from "./conformance.js";

conformance("variable");
