/**
 * A staff username: the login handle development tokens name and the admin commands take. The shapes
 * identity providers issue as subjects fit (fixture handles such as `dr.okafor`, e-mail addresses,
 * numeric or `provider|id` subjects); so must a username the FHIR import derives, or no admin command
 * could name that person.
 */
export const STAFF_USERNAME = /^[A-Za-z0-9][A-Za-z0-9._@+|:-]{0,127}$/;
