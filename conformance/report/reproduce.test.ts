import { describe, expect, it } from 'vitest';
import { commandLine, replayArgv, targetArgv } from './reproduce.js';

describe('the reproduction command line', () => {
  it('carries every target setting given, then profile and runs', () => {
    const argv = targetArgv({
      config: 'my target.jsonc',
      baseUrl: 'https://api.example.test',
      apiKeyHeader: 'X-KEY',
      pathPrefix: '/gw',
      symbol: 'ETHBTC',
      otherSymbol: 'LTCBTC',
      timePath: '/api/v1/time',
      profile: 'reference',
      runs: 7,
    });
    expect(argv).toEqual([
      '--config',
      'my target.jsonc',
      '--base-url',
      'https://api.example.test',
      '--api-key-header',
      'X-KEY',
      '--path-prefix',
      '/gw',
      '--symbol',
      'ETHBTC',
      '--other-symbol',
      'LTCBTC',
      '--time-path',
      '/api/v1/time',
      '--profile',
      'reference',
      '--runs',
      '7',
    ]);
    expect(commandLine(replayArgv(9, 'SIG-REQUIRED', argv))).toBe(
      "replay --seed 9 --only SIG-REQUIRED --config 'my target.jsonc' --base-url https://api.example.test --api-key-header X-KEY --path-prefix /gw --symbol ETHBTC --other-symbol LTCBTC --time-path /api/v1/time --profile reference --runs 7",
    );
  });
  it('says --embedded when the run had no target', () => {
    expect(targetArgv({ profile: 'core', runs: 100 })).toEqual(['--embedded', '--profile', 'core', '--runs', '100']);
  });
  it('quotes what a shell would split or expand', () => {
    expect(commandLine(["it's", 'a b', '$X', 'plain'])).toBe(`'it'\\''s' 'a b' '$X' plain`);
  });
});
