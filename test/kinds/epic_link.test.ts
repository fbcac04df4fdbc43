import { conformance } from "./conformance.js";

conformance("epic_link");
