// Orders spec files longest first, so no long file starts last and runs
// alone while the other workers are idle. Jest does this from its own cache
// of durations, which a clean clone (CI) does not have: there it falls back
// to file size, and the live conformance specs (a few lines each, minutes
// long) ran last, one of them alone for two minutes. This sequencer adds the
// durations recorded in spec-durations.json (`npm run -s test:durations --
// <jest --json output>...` refreshes it) wherever jest's cache has none.
const { relative } = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;

const recorded = require('./spec-durations.json');

class DurationSequencer extends Sequencer {
  time(test) {
    const cached = super.time(test);
    if (cached !== undefined) {
      return cached;
    }
    const seconds = recorded[relative(test.context.config.rootDir, test.path)];
    return seconds === undefined ? undefined : seconds * 1000;
  }
}

module.exports = DurationSequencer;
