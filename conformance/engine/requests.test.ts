import { describe, expect, it } from 'vitest';
import { checks } from '../checks/index.js';
import { routeKey, type RouteKey } from './requests.js';

describe('RouteKey', () => {
  it('is the endpoint and placement of a route, and every key a check covers is one', () => {
    expect(routeKey({ endpoint: 'batch', placement: 'json' })).toBe('batch/json');
    expect(routeKey({ endpoint: 'v1.1', placement: 'split' })).toBe('v1.1/split');
    const all: RouteKey[] = ['batch/json', 'v1/query', 'v1/body', 'v1/split', 'v1.1/query', 'v1.1/body', 'v1.1/split'];
    const covered = new Set(checks.flatMap((c) => c.covers ?? []));
    expect(covered.size).toBeGreaterThan(3);
    for (const k of covered) expect(all).toContain(k);
  });

  it('a misspelt route is a compile error (npm test typechecks this file)', () => {
    // @ts-expect-error 'batch/form' is no route: the batch carries JSON
    const bad: RouteKey = 'batch/form';
    // @ts-expect-error 'v2/query' is no endpoint
    const none: RouteKey = 'v2/query';
    expect([bad, none]).toHaveLength(2);
  });
});
