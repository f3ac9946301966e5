// The rule of when the browser checks run (chromium-presence.ts): a fresh clone's `npm test`
// (CI=true, maybe no Chromium) skips them with a reason; .ci/run (AFP_REQUIRE_CHROMIUM=1) never does.
import { afterEach, describe, expect, test, vi } from 'vitest';
import { chromiumSkipReason } from './chromium-presence.ts';

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('when the browser checks run', () => {
  test('CI=true on a machine without Chromium: skipped, with the reason (fresh-clone runs npm test so)', () => {
    vi.stubEnv('CI', 'true');
    vi.stubEnv('AFP_REQUIRE_CHROMIUM', '');
    vi.stubEnv('AFP_SKIP_CHROMIUM', '');
    vi.stubEnv('PATH', '/nonexistent');
    expect(chromiumSkipReason()).toMatch(/^chromium is not on PATH/);
  });

  test('under .ci/run (AFP_REQUIRE_CHROMIUM=1): never skipped, even without Chromium or with AFP_SKIP_CHROMIUM=1', () => {
    vi.stubEnv('AFP_REQUIRE_CHROMIUM', '1');
    vi.stubEnv('AFP_SKIP_CHROMIUM', '1');
    vi.stubEnv('PATH', '/nonexistent');
    expect(chromiumSkipReason()).toBeUndefined();
  });

  test('AFP_SKIP_CHROMIUM=1 skips them elsewhere', () => {
    vi.stubEnv('AFP_REQUIRE_CHROMIUM', '');
    vi.stubEnv('AFP_SKIP_CHROMIUM', '1');
    expect(chromiumSkipReason()).toBe('AFP_SKIP_CHROMIUM=1');
  });
});
