import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * Files that wait on real time rather than work: GitHub's minute of CPU time in
 * secondary-limits.test.ts holds its plan over a minute whatever the machine does.
 */
const WAITS_ON_REAL_TIME = ["test/integration/secondary-limits.test.ts"];

/**
 * Vitest's order (projects by name, then the slowest or largest files first), except that files
 * waiting on real time start first. Last in the "rest" project, that two-minute file ran alone for
 * its last 110 s of a 491 s run (2026-11-29); first, its waits overlap the other files' work.
 */
class RealTimeFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const waits = (file: TestSpecification) =>
      WAITS_ON_REAL_TIME.some((path) => file.moduleId.endsWith(path));
    return [...sorted.filter(waits), ...sorted.filter((file) => !waits(file))];
  }
}

export default defineConfig({
  test: {
    // Subprocess tests run the built CLI, so the build must be current before any test starts.
    globalSetup: ["test/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Vitest's default leaves a core to its own process (one worker on two cores), but its process
    // is mostly idle while files run, and the sandbox each file serves runs in the file's worker.
    // One more than the cores: a few files wait on real time (GitHub's minute of CPU time in
    // test/integration/secondary-limits.test.ts), and the cores should not wait with them.
    maxWorkers: availableParallelism() + 1,
    sequence: { sequencer: RealTimeFirst },
    projects: [
      {
        extends: true,
        test: {
          name: "kinds",
          include: ["test/kinds/**/*.test.ts"],
          // The conformance files import the same modules (the registry, the sandbox, GitHub's
          // OpenAPI description) and keep no state between files: a worker imports them once.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: "modules",
          // Tests of modules, and of the sandbox, hostile services, the CI steps and the library over
          // loopback: none mocks a module or keeps state in one beyond its own sandbox, so a worker
          // imports the source once for all of them.
          include: [
            "test/unit/**/*.test.ts",
            "test/config/**/*.test.ts",
            "test/render/**/*.test.ts",
            "test/forge/**/*.test.ts",
            "test/sandbox/**/*.test.ts",
            "test/hostile/**/*.test.ts",
            "test/ci/**/*.test.ts",
            "test/library/**/*.test.ts",
          ],
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: "rest",
          // The integration scenarios start their own sandboxes and child processes; none mocks a
          // module, stubs a global or changes the environment, so they share a worker's modules
          // too. Isolated, each file imported the source again: 40 of them took 208 CPU-seconds
          // isolated against 66 shared (2026-11-29, the machine shared).
          include: ["test/**/*.test.ts"],
          exclude: [
            "test/kinds/**",
            "test/unit/**",
            "test/config/**",
            "test/render/**",
            "test/forge/**",
            "test/sandbox/**",
            "test/hostile/**",
            "test/ci/**",
            "test/library/**",
          ],
          isolate: false,
        },
      },
    ],
  },
});
