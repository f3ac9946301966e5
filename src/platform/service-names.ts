/**
 * The platform's six services by name: the name a fault window, a rate-limit row, a route family
 * and a mount use. Its own file so that the rate limiter (which the platform builds) names a
 * service without importing the platform.
 */
export type ServiceName = 'faucet' | 'escrow' | 'trading' | 'domains' | 'wallet' | 'casino';
export const SERVICE_NAMES: readonly ServiceName[] = ['faucet', 'escrow', 'trading', 'domains', 'wallet', 'casino'];
