import sodium from "libsodium-wrappers";

/**
 * A value sealed under the public key a secrets list publishes, as any client of GitHub seals it
 * ("Encrypting secrets for the REST API"): for tests that send secrets with plain requests.
 */
export async function sealedBody(
  call: (method: string, path: string) => Promise<{ body: unknown }>,
  list: string,
  value: string,
): Promise<{ encrypted_value: string; key_id: string }> {
  await sodium.ready;
  const key = (await call("GET", `${list}/public-key`)).body as { key_id: string; key: string };
  const box = sodium.crypto_box_seal(
    value,
    sodium.from_base64(key.key, sodium.base64_variants.ORIGINAL),
  );
  return {
    encrypted_value: sodium.to_base64(box, sodium.base64_variants.ORIGINAL),
    key_id: key.key_id,
  };
}
