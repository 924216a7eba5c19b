/** The node:http adapter sends the answers of one event-loop turn together, at its end, in order. */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { createTurnSender } from '../../src/adapters/node-http/send.js';

describe('createTurnSender', () => {
  it('runs nothing at once, then every send of the turn in the order they came', async () => {
    const sendAtTurnEnd = createTurnSender();
    const sent: number[] = [];
    for (let i = 0; i < 5; i++) sendAtTurnEnd(() => sent.push(i));
    await Promise.resolve();
    expect(sent).toEqual([]);
    await nextTurn();
    expect(sent).toEqual([0, 1, 2, 3, 4]);
  });

  it('sends what a send queues in the next turn, and keeps going turn after turn', async () => {
    const sendAtTurnEnd = createTurnSender();
    const sent: string[] = [];
    sendAtTurnEnd(() => {
      sent.push('first');
      sendAtTurnEnd(() => sent.push('queued by the first'));
    });
    await nextTurn();
    expect(sent).toEqual(['first']);
    await nextTurn();
    expect(sent).toEqual(['first', 'queued by the first']);
    sendAtTurnEnd(() => sent.push('later'));
    await nextTurn();
    expect(sent).toEqual(['first', 'queued by the first', 'later']);
  });
});
