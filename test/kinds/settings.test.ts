import { conformance } from "./conformance.js";
import { settingsFixture } from "./fixtures/settings.js";

conformance(settingsFixture);
