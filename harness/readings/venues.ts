/**
 * The correct servers the kit must pass that the team did not write (their suites fail on any
 * MUST failure or MUST check left undecided): the docs page on the kit's strength lists them
 * beside the other readings.
 */
export const CORRECT_VENUES: readonly string[] = [
  'Python standard library (harness/foreign/python)',
  'Go net/http behind nginx (harness/foreign/go)',
  'PHP 8 under Apache httpd with SQLite, every fault off (harness/layers/php)',
  'Java 17 behind haproxy, every fault off (harness/layers/java)',
  'the stranger venues in the habits of Python, Go and JavaScript, and a servlet-style one (harness/strangers)',
];
