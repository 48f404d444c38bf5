import { ApiError } from '@game-platform/client';
import { describe, expect, it } from 'vitest';
import { errorsOfAnswer, errorsOfSchema } from '../console/src/errors.js';
import { HeroConfigBody } from '../core/heroes/models.js';

/** How the console places the service's messages and its schemas' beside the fields they name (docs/console.md). */
const answer = (status: number, message: string) => new ApiError(status, 'x.y', message, { message });

describe('errorsOfAnswer', () => {
  it('puts a 4xx naming a body or query field beside that field', () => {
    expect(errorsOfAnswer(answer(400, 'body.code: too long'))).toEqual({ code: 'too long' });
    expect(errorsOfAnswer(answer(404, 'body.projectName: no project p'))).toEqual({ projectName: 'no project p' });
    expect(errorsOfAnswer(answer(400, 'query.limit: too big'))).toEqual({ limit: 'too big' });
  });

  it('puts a message about an element of a list beside the list and under its full path', () => {
    expect(errorsOfAnswer(answer(404, 'body.levelCosts.1.ticketLevel: project p has no price level 9'))).toEqual({
      levelCosts: 'project p has no price level 9',
      'levelCosts.1.ticketLevel': 'project p has no price level 9',
    });
  });

  it("keeps for the form what names no field, a 5xx, and errors that are not the service's", () => {
    expect(errorsOfAnswer(answer(409, 'the code is taken'))).toEqual({ form: 'the code is taken' });
    expect(errorsOfAnswer(answer(503, 'body.x: unavailable'))).toEqual({ form: 'body.x: unavailable' });
    expect(errorsOfAnswer(answer(401, ''))).toEqual({ form: 'The service answered 401' });
    expect(errorsOfAnswer(new TypeError('Failed to fetch'))).toEqual({ form: 'Failed to fetch' });
  });
});

describe('errorsOfSchema', () => {
  const valid = {
    heroType: '0xabc::hero::Hero',
    maxLevel: 3,
    projectName: 'p',
    levelCosts: [
      { level: 2, ticketLevel: 1, amount: 5 },
      { level: 3, ticketLevel: 1, amount: 8 },
    ],
  };

  it('passes what the service would take', () => {
    expect(errorsOfSchema(HeroConfigBody, valid)).toBeUndefined();
  });

  it("names each field's first issue, and a list element's under its full path too", () => {
    const errors = errorsOfSchema(HeroConfigBody, { ...valid, heroType: 'hero', levelCosts: [valid.levelCosts[0], { level: 3, ticketLevel: 1, amount: 0 }] });
    expect(errors?.heroType).toMatch(/Move struct type/);
    expect(errors?.levelCosts).toBeDefined();
    expect(errors?.['levelCosts.1.amount']).toBe(errors?.levelCosts);
    expect(Object.keys(errors ?? {}).sort()).toEqual(['heroType', 'levelCosts', 'levelCosts.1.amount']);
  });

  it('reports a missing level cost on the list itself', () => {
    expect(errorsOfSchema(HeroConfigBody, { ...valid, levelCosts: [valid.levelCosts[0]] })).toEqual({
      levelCosts: 'every level from 2 to maxLevel needs a cost; level 3 has none',
    });
  });
});
