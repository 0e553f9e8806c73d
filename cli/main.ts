// placeholder until the CLI lands (owned by the lead)
console.log('hand: not yet');
