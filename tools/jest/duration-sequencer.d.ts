import type { Test } from '@jest/test-result';
import Sequencer from '@jest/test-sequencer';

/** Longest spec files first, from spec-durations.json where jest has no cache (see the .js). */
declare class DurationSequencer extends Sequencer {
  time(test: Test): number | undefined;
}

export = DurationSequencer;
