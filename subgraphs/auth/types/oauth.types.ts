import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsObject, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { GraphQLJSON } from 'graphql-scalars';
import { ArgsType, Field, InputType, Int, ObjectType } from 'type-graphql';
import { EnumValue, graphqlEnum } from '../../../core/graphql/enum';

/** One parameter of an OAuth request as the client sent it (a repeated name stays repeated: RFC 6749 §3.1 refuses it). */
@InputType()
export class OAuthParamInput {
  @Field() @IsString() @MaxLength(128) name: string;
  @Field() @IsString() @MaxLength(4096) value: string;
}

/** The parameters of an OAuth request, and the client's HTTP Basic credentials when it sent them. */
@ArgsType()
export class OAuthRequestArgs {
  @Field(() => [OAuthParamInput]) @IsArray() @ArrayMaxSize(64) @ValidateNested({ each: true }) params: OAuthParamInput[];
  @Field(() => String, { nullable: true, description: 'The Authorization header when it is HTTP Basic (client authentication)' })
  @IsOptional()
  @IsString()
  @MaxLength(4096)
  authorization?: string;
}

@ArgsType()
export class OAuthDecisionArgs {
  @Field(() => [OAuthParamInput]) @IsArray() @ArrayMaxSize(64) @ValidateNested({ each: true }) params: OAuthParamInput[];
  @Field(() => String) @IsIn(['allow', 'deny']) decision: 'allow' | 'deny';
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(320) email?: string;
  @Field(() => String, { nullable: true }) @IsOptional() @IsString() @MaxLength(1024) password?: string;
}

@ArgsType()
export class RegisterOAuthClientArgs {
  @Field(() => GraphQLJSON, { description: 'The client metadata of RFC 7591: client_name, redirect_uris, grant_types, token_endpoint_auth_method, scope' })
  @IsObject()
  metadata: Record<string, unknown>;
}

@ArgsType()
export class OAuthAccessTokenArgs {
  @Field() @IsString() @MaxLength(512) accessToken: string;
}

@ObjectType({ description: 'A registered OAuth client (RFC 7591); the secret is shown only here' })
export class RegisteredOAuthClient {
  @Field() clientId: string;
  @Field(() => String, { nullable: true }) clientSecret: string | null;
  @Field(() => Int) clientIdIssuedAt: number;
  @Field(() => Int) clientSecretExpiresAt: number;
  @Field() clientName: string;
  @Field(() => [String]) redirectUris: string[];
  @Field(() => [String]) grantTypes: string[];
  @Field(() => [String]) responseTypes: string[];
  @Field() tokenEndpointAuthMethod: string;
  @Field() scope: string;
}

export const OAuthAuthorizationStep = graphqlEnum('OAuthAuthorizationStep', ['CONSENT', 'REDIRECT', 'REFUSED', 'SIGN_IN_FAILED']);
export type OAuthAuthorizationStep = EnumValue<typeof OAuthAuthorizationStep>;

@ObjectType({ description: 'What the authorization endpoint does next' })
export class OAuthAuthorizationOutcome {
  @Field(() => OAuthAuthorizationStep, {
    description: 'CONSENT: show the sign-in and consent page; REDIRECT: send the browser to redirectTo; REFUSED: an error page, never a redirect (unknown client or redirect URI); SIGN_IN_FAILED: the page again with a message',
  })
  step: OAuthAuthorizationStep;
  @Field(() => String, { nullable: true }) redirectTo?: string | null;
  @Field(() => String, { nullable: true }) error?: string | null;
  @Field(() => String, { nullable: true }) errorDescription?: string | null;
  @Field(() => String, { nullable: true }) clientName?: string | null;
  @Field(() => [String], { nullable: true, description: 'The scopes the client asks for' }) scopes?: string[] | null;
}

@ObjectType({ description: 'An OAuth protocol error (RFC 6749 §5.2) and its HTTP status' })
export class OAuthErrorAnswer {
  @Field(() => Int) status: number;
  @Field() error: string;
  @Field(() => String, { nullable: true }) errorDescription?: string | null;
  @Field({ description: 'Whether the client authenticated with HTTP Basic (the 401 then carries WWW-Authenticate)' }) basic: boolean;
}

@ObjectType()
export class OAuthTokenAnswer {
  @Field() accessToken: string;
  @Field() tokenType: string;
  @Field(() => Int) expiresIn: number;
  @Field(() => String, { nullable: true }) refreshToken?: string | null;
  @Field() scope: string;
}

@ObjectType({ description: 'The token endpoint: a token or an OAuth error' })
export class OAuthTokenOutcome {
  @Field(() => OAuthTokenAnswer, { nullable: true }) token?: OAuthTokenAnswer | null;
  @Field(() => OAuthErrorAnswer, { nullable: true }) error?: OAuthErrorAnswer | null;
}

@ObjectType({ description: 'RFC 7662 introspection' })
export class OAuthIntrospection {
  @Field() active: boolean;
  @Field(() => String, { nullable: true }) scope?: string | null;
  @Field(() => String, { nullable: true }) clientId?: string | null;
  @Field(() => String, { nullable: true }) tokenType?: string | null;
  @Field(() => Int, { nullable: true }) exp?: number | null;
  @Field(() => Int, { nullable: true }) iat?: number | null;
  @Field(() => String, { nullable: true }) sub?: string | null;
  @Field(() => String, { nullable: true }) iss?: string | null;
}

@ObjectType({ description: 'Revocation or introspection: the answer, or an OAuth error (client authentication)' })
export class OAuthClientCallOutcome {
  @Field(() => OAuthIntrospection, { nullable: true }) introspection?: OAuthIntrospection | null;
  @Field(() => OAuthErrorAnswer, { nullable: true }) error?: OAuthErrorAnswer | null;
}

@ArgsType()
export class OAuthClientArgs {
  @Field() @IsString() @MaxLength(64) clientId: string;
}

@ArgsType()
export class SetOAuthClientActiveArgs extends OAuthClientArgs {
  @Field({ description: 'false disables the client and revokes its tokens; true lets it authenticate again' }) @IsBoolean() active: boolean;
}

@ObjectType()
export class RotatedOAuthClientSecret {
  @Field() clientId: string;
  @Field({ description: 'The new secret, shown only here; the old one stops working and the tokens issued to the client are revoked' })
  clientSecret: string;
}
