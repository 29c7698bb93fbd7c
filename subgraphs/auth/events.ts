/** Every event the auth domain publishes; each belongs to the member's stream (aggregate: member id). */
export const AUTH_EVENTS = { memberProfileChanged: 'member.profile_changed' } as const;
