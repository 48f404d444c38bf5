import { describe, expect, it } from 'vitest';
import { consoleCsp, consolePage, filesPlace, heroApiPlace } from '../core/http/console-page.js';

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

describe('filesPlace', () => {
  it("is the main base's files/ on the page origin without a URL, else the Files bucket's URL and origin", () => {
    expect(filesPlace(undefined, '/v2-testing/files')).toEqual({ base: '/v2-testing/files' });
    expect(filesPlace('https://files-abc.s3.us-east-1.amazonaws.com', '/x')).toEqual({
      base: 'https://files-abc.s3.us-east-1.amazonaws.com',
      origin: 'https://files-abc.s3.us-east-1.amazonaws.com',
    });
    expect(() => filesPlace('http://files.example.com', '/x')).toThrow(/FILES_URL: expected an https URL/);
  });

  it('adds the files origin to images only, and names the files base to the script', () => {
    const policy = consoleCsp(undefined, 'https://files.example.com');
    expect(policy).toContain("img-src 'self' blob: data: https://files.example.com;");
    expect(policy.replace(' https://files.example.com', '')).toBe(consoleCsp());
    const page = consolePage({
      apiBase: '/v2-prod',
      heroBase: '/hero-prod',
      filesBase: 'https://files.example.com',
      script: '/s.js',
      stylesheet: '/s.css',
      stage: 'prod',
    });
    expect(page).toContain('data-files-base="https://files.example.com"');
  });
});
