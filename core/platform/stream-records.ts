import { unmarshall } from '@aws-sdk/util-dynamodb';

/**
 * The table's stream records as its consumers read them (the boards' live heads, core/rankings/rank-stream.ts; the
 * stage's day figures, core/payments/day-figures.ts). The stream's view is NEW_AND_OLD_IMAGES (infra/table.ts):
 * an insert has only the new image, a removal only the old one, a change both.
 */

/** A stream record's part the consumers read: its keys and images, in DynamoDB's wire form. */
export interface StreamImages {
  Keys?: Record<string, { S?: string }>;
  OldImage?: unknown;
  NewImage?: unknown;
  SequenceNumber?: string;
}

/** The part of a DynamoDB Streams event, as Lambda invokes a subscribed function with it, that the consumers read. */
export interface StreamEvent {
  Records: { dynamodb?: StreamImages }[];
}

/** One record of the stream: the item's images, read into plain values. */
export interface ItemChange {
  before?: Record<string, unknown>;
  after?: Record<string, unknown>;
}

type WireImage = Parameters<typeof unmarshall>[0];

/** A stream record's images (DynamoDB's wire form, as Lambda's event and GetRecords both give them) read. */
export function itemChangeOf(record: { OldImage?: unknown; NewImage?: unknown }): ItemChange {
  return {
    ...(record.OldImage ? { before: unmarshall(record.OldImage as WireImage) } : {}),
    ...(record.NewImage ? { after: unmarshall(record.NewImage as WireImage) } : {}),
  };
}

/** A record's keys in plain values (its images are not read): for a log line that must not carry the item. */
export const keysOf = (images: StreamImages) => (images.Keys ? unmarshall(images.Keys as WireImage) : null);
