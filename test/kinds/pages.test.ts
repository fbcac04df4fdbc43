import { conformance } from "./conformance.js";

conformance("pages");
