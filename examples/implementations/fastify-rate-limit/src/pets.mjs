/** The pets and store-orders operations (spec: Endpoints) as a Fastify plugin, in memory, with JSON schemas. */
const PetStatus = { type: 'string', enum: ['available', 'pending', 'sold'] };
const NewPet = {
  type: 'object',
  required: ['name', 'categoryId'],
  properties: {
    name: { type: 'string' },
    categoryId: { int64: true }, // a number, or a BigInt beyond 2^53 (json.mjs)
    status: PetStatus,
  },
};
const Pet = {
  type: 'object',
  required: ['id', 'name', 'categoryId'],
  properties: { id: { type: 'integer' }, name: { type: 'string' }, categoryId: { type: 'integer' }, status: PetStatus },
};

/** getPet is deprecated (RFC 9745) and goes on 5 December 2030 (RFC 8594); GET /pets replaces it. */
const getPetLifecycle = {
  deprecation: `@${Date.UTC(2026, 0, 1) / 1000}`,
  sunset: 'Thu, 05 Dec 2030 00:00:00 GMT',
  link: '</v1/pets>; rel="successor-version"',
};

export async function petsRoutes(fastify) {
  const pets = [];
  const byId = new Map();

  fastify.get('/pets', {
    schema: {
      querystring: {
        type: 'object',
        properties: { limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 }, status: PetStatus },
      },
      response: { 200: { type: 'array', items: Pet } },
    },
    handler: async (request) => {
      const { limit, status } = request.query;
      const matching = status === undefined ? pets : pets.filter((pet) => pet.status === status);
      return matching.slice(0, limit);
    },
  });

  fastify.post('/pets', {
    schema: { body: NewPet, response: { 201: Pet } },
    handler: async (request, reply) => {
      const { name, categoryId, status } = request.body;
      const pet = { id: pets.length + 1, name, categoryId, ...(status === undefined ? {} : { status }) };
      pets.push(pet);
      byId.set(String(pet.id), pet);
      return reply.code(201).send(pet);
    },
  });

  fastify.get('/pets/:petId', {
    schema: { response: { 200: Pet } },
    handler: async (request, reply) => {
      reply.headers(getPetLifecycle);
      const { petId } = request.params;
      // Looked up as text: an id beyond 2^53 must not round to another pet's.
      const pet = /^-?\d+$/.test(petId) ? byId.get(BigInt(petId).toString()) : undefined;
      if (!pet) return reply.code(404).send({ code: 'not_found', message: `no pet has the id ${petId}`, status: 404 });
      return pet;
    },
  });

  // The store-orders area is experimental (spec: What the service does); its shapes are not shown yet.
  fastify.get('/store/orders', async (_request, reply) => {
    reply.header('x-api-stability', 'experimental');
    return [];
  });
}
