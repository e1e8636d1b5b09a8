/**
 * How an id from outside (a user or chat id, a platform's update id) becomes part of a Redis key,
 * the same way in every area: percent-encoded, so no id can add a ':' separator or a '{' hash tag
 * of its own (Redis Cluster places a key by the text between its first '{' and '}').
 */
export function keyPart(id: string): string {
  return encodeURIComponent(id);
}
