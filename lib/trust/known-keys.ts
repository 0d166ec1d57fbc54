// Keys the product knows by name. Naming a key is not trusting it: pinning is
// always the user's act (contract §5 signer_trusted).

/** The published kernel key of the built-in demo log (tools/demo, default seed). Its private half is public too. */
export const DEMO_KERNEL_KEY = '4e9f3e296bcc79b5ecdc26b6db814637fb1184d5e0162afdac7a9a3e7fb60f17';
