import { DeliveryBacklogGroup } from '../queue/delivery-backlog';
import { deliveryHealth } from './delivery-health';

const group = (destination: string, state: DeliveryBacklogGroup['state'], count: number, oldestSeconds: number | null = count ? 5 : null): DeliveryBacklogGroup => ({ destination, state, count, oldestSeconds });

describe(deliveryHealth.name, () => {
  it('is ok with an open backlog younger than the threshold, and sums it over destinations', () => {
    const sut = deliveryHealth([group('fhir', 'pending', 2, 30), group('webhook', 'pending', 1, 12.34), group('fhir', 'retrying', 3, 50), group('fhir', 'dead', 0)], 60);
    expect(sut).toEqual({ status: 'ok', problems: [], pending: 3, retrying: 3, dead: 0, oldestUndeliveredSeconds: 50, maxAgeSeconds: 60 });
  });

  it('is degraded by one dead letter, however young', () => {
    expect(deliveryHealth([group('webhook', 'dead', 1, 1)], 60)).toMatchObject({ status: 'degraded', problems: ['dead_lettered'], dead: 1, oldestUndeliveredSeconds: null });
  });

  it('is degraded by an open delivery older than the threshold, and says both when both hold', () => {
    expect(deliveryHealth([group('fhir', 'retrying', 1, 61)], 60)).toMatchObject({ status: 'degraded', problems: ['backlog_too_old'] });
    expect(deliveryHealth([group('fhir', 'pending', 1, 61), group('fhir', 'dead', 2, 9999)], 60).problems).toEqual(['dead_lettered', 'backlog_too_old']);
  });

  it('does not count a dead letter’s age as the open backlog’s', () => {
    expect(deliveryHealth([group('fhir', 'dead', 1, 9999), group('fhir', 'pending', 1, 10)], 60).oldestUndeliveredSeconds).toBe(10);
  });
});
