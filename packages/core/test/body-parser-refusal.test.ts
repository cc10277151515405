import express, { type ErrorRequestHandler } from 'express';
import request from 'supertest';
import { bodyParserRefusal, SimError, type OtherRefusal } from '@racedata/core';

const other: OtherRefusal = (message, options) => new SimError('OTHER', message, 418, options);

/** An app whose parsers are the simulators' own (express.json, express.raw), answering as the translation says. */
function appWith(parser: express.RequestHandler) {
  const app = express();
  app.post('/', parser, (_req, res) => {
    res.json({ ok: true });
  });
  const answer: ErrorRequestHandler = (err, _req, res, _next) => {
    const error = bodyParserRefusal(err, other);
    if (!error) res.status(500).json({ code: 'UNTRANSLATED' });
    else res.status(error.status).json({ code: error.code, message: error.message });
  };
  app.use(answer);
  return app;
}

const json = appWith(express.json({ type: () => true, limit: 64 }));

describe('bodyParserRefusal: what the body parser refuses, each with its own code', () => {
  test('an unsupported charset: 415, naming it and what to send', async () => {
    const res = await request(json)
      .post('/')
      .set('content-type', 'application/json; charset=koi8-r')
      .send('{}');
    expect(res.status).toBe(415);
    expect(res.body).toEqual({
      code: 'UNSUPPORTED_CHARSET',
      message: 'unsupported charset "koi8-r"; send UTF-8 JSON',
    });
  });

  test('a charset label of any length is quoted only in part', async () => {
    const res = await request(json)
      .post('/')
      .set('content-type', `application/json; charset=utf-${'k'.repeat(4000)}`)
      .send('{}');
    expect(res.status).toBe(415);
    expect(res.body.message).toBe(`unsupported charset "utf-${'k'.repeat(60)}…"; send UTF-8 JSON`);
  });

  test('an unsupported content encoding: 415, naming it', async () => {
    const res = await request(json)
      .post('/')
      .set('content-type', 'application/json')
      .set('content-encoding', 'x-squash')
      .send('{}');
    expect(res.status).toBe(415);
    expect(res.body.code).toBe('UNSUPPORTED_CHARSET');
    expect(res.body.message).toMatch(/^unsupported content encoding "x-squash"; /);
  });

  test('a body over the limit: 413 with the limit', async () => {
    const res = await request(json)
      .post('/')
      .send({ text: 'x'.repeat(100) });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ code: 'PAYLOAD_TOO_LARGE', message: 'request body exceeds 64 bytes' });
  });

  test('JSON that does not parse: 400 MALFORMED_JSON', async () => {
    const res = await request(json).post('/').set('content-type', 'application/json').send('{"a":');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 'MALFORMED_JSON', message: 'request body is not valid JSON' });
  });

  test("any other client error: the simulator's own code, the parser's message cut short", async () => {
    const refusing = appWith(
      express.raw({
        type: () => true,
        verify: () => {
          throw new Error(`bad ${'y'.repeat(500)}`);
        },
      }),
    );
    const res = await request(refusing).post('/').send('<a/>');
    expect(res.status).toBe(418);
    expect(res.body).toEqual({ code: 'OTHER', message: `bad ${'y'.repeat(196)}…` });
  });

  test('anything else is not a refusal', () => {
    expect(bodyParserRefusal(new Error('boom'), other)).toBeUndefined();
    expect(bodyParserRefusal(Object.assign(new Error('boom'), { status: 500 }), other)).toBeUndefined();
    expect(bodyParserRefusal('text', other)).toBeUndefined();
    expect(bodyParserRefusal(null, other)).toBeUndefined();
  });
});
