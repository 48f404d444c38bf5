import { describe, expect, it } from 'vitest';
import { consoleCsp, heroApiPlace } from '../core/http/console-page.js';

/** Where the console calls the hero base (docs/console.md "The hero game"), and the one origin its policy adds. */
describe('heroApiPlace', () => {
  it('is a path on the page origin without a URL', () => {
    expect(heroApiPlace(undefined, '/hero-testing')).toEqual({ base: '/hero-testing' });
    expect(heroApiPlace('', '/hero-testing')).toEqual({ base: '/hero-testing' });
  });

  it("is the hero API's URL and origin, without a trailing slash", () => {
    expect(heroApiPlace('https://abc.execute-api.us-east-1.amazonaws.com/hero-prod/', '/x')).toEqual({
      base: 'https://abc.execute-api.us-east-1.amazonaws.com/hero-prod',
      origin: 'https://abc.execute-api.us-east-1.amazonaws.com',
    });
    expect(heroApiPlace('http://127.0.0.1:4000/hero-testing', '/x').origin).toBe('http://127.0.0.1:4000');
  });

  it.each([
    ['not a URL', /absolute URL/],
    ['http://hero.example.com/hero-testing', /https/],
    ['javascript:alert(1)', /https/],
    ['https://hero.example.com/hero-testing?x=1', /no query/],
    ['https://user:pw@hero.example.com/hero-testing', /credentials/],
  ])('refuses %s', (setting, message) => {
    expect(() => heroApiPlace(setting, '/x')).toThrow(message);
  });
});

describe('consoleCsp', () => {
  it("allows connections to the page's origin only, or to it and the hero origin", () => {
    expect(consoleCsp()).toContain("connect-src 'self';");
    expect(consoleCsp('https://hero.example.com')).toContain("connect-src 'self' https://hero.example.com;");
    // Nothing else widens: scripts, styles and images stay the page's own.
    expect(consoleCsp('https://hero.example.com').replace(' https://hero.example.com', '')).toBe(consoleCsp());
  });
});
