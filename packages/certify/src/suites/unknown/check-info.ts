import type { CheckInfo, Suite } from '../../types';

/** What each suite sends, as its rule lists it. */
const SENT: Record<Suite, string> = {
  events:
    'an event with unknown fields (in the event, the page and its payload), one on a channel it does not know, names in ' +
    'non-ASCII letters, and a payload near the size limit',
  listen:
    'XML with unknown elements, attributes and a namespace, a document type from a channel it does not know, names in ' +
    'non-ASCII letters (UTF-8 and character references), and a document near the size limit',
  stream:
    'a Data message with unknown fields (in the message and its payload), a message of an unknown `type`, one on a ' +
    'channel it does not know, names in non-ASCII letters, and a payload near the size limit',
  stomp:
    'a MESSAGE with unknown headers and body fields and XML with unknown elements and attributes, one on a channel it ' +
    'does not know, names in non-ASCII letters, and a payload near the size limit',
};

const SOURCE: Record<Suite, string> = {
  events:
    'interface 2.5 and 2.6 (the event and page fields) with 9: "Versioning scheme of the interface: not shown", and ' +
    '2.3: "the payload structure of each channel: not shown"',
  listen: 'interface 2.4: "The structure of the XML document: not shown"; 9: versioning not shown',
  stream:
    'interface 2.7 (the message types and their fields) with 9: "Versioning scheme of the interface: not shown"; ' +
    '2.3: "Channel names and the payload structure of each channel: not shown"',
  stomp: 'interface 2.4 and 4.6: the XML structure is "not shown"; 9: versioning not shown',
};

export function toleratesUnknown(suite: Suite): CheckInfo {
  return {
    id: 'tolerates-unknown',
    required: true,
    rule:
      `is sent ${SENT[suite]}, each followed by a normal message: keeps ${suite === 'events' || suite === 'listen' ? 'polling' : 'its connection'} and does not exit, ` +
      'and with --echo stdout prints the normal message sent after each',
    source: SOURCE[suite],
  };
}
