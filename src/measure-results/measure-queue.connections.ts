/** The recompute queue's BullMQ `Queue` (producer side: the relay and the sweep add chunk jobs to it). */
export const MEASURE_QUEUE = Symbol('MEASURE_QUEUE');
/** Its own fail-fast Redis connection, as the approval relay has (see `createProducerConnection`). */
export const MEASURE_PRODUCER_REDIS = Symbol('MEASURE_PRODUCER_REDIS');
