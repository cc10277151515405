/**
 * The version of racedata-sim this test kit belongs to: the root package.json's version (a test
 * compares the two), and the tag of the images the Testcontainers module starts by default.
 */
export const RACEDATA_SIM_VERSION = '0.2.0';
