// SPDX-License-Identifier: MIT
// Test only: the smallest ERC-1271 smart-contract wallet — one EOA owner, whose plain ECDSA
// signature of the hash is the wallet's signature. Never deployed outside tests.
pragma solidity 0.8.28;

import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";

contract OwnedWallet {
    // ERC-1271: bytes4(keccak256("isValidSignature(bytes32,bytes)"))
    bytes4 internal constant MAGIC_VALUE = 0x1626ba7e;

    address public immutable owner;

    constructor(address owner_) {
        owner = owner_;
    }

    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        (address signer, ECDSA.RecoverError error, ) = ECDSA.tryRecoverCalldata(hash, signature);
        return error == ECDSA.RecoverError.NoError && signer == owner ? MAGIC_VALUE : bytes4(0xffffffff);
    }
}
